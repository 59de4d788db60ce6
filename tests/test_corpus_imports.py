"""helpers/corpus has no import circle: the imports of its modules, module-level and inside functions,
read with ast, form a graph without a cycle (issue "Corpus 4.0")."""

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "helpers" / "corpus"


def _module_name(path):
    parts = list(path.relative_to(PKG).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["helpers", "corpus"] + parts)


def import_graph():
    """{module: modules of helpers.corpus it imports}; ``from helpers.corpus import lexicon`` is an
    import of the submodule, ``from helpers.corpus import load_corpus`` one of the package."""
    files = {_module_name(f): f for f in PKG.rglob("*.py")}
    graph = {}
    for name, path in files.items():
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                subs = {f"{node.module}.{a.name}" for a in node.names} & files.keys()
                deps |= subs
                if node.module in files and len(subs) < len(node.names):
                    deps.add(node.module)
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names} & files.keys()
        graph[name] = deps - {name}
    return graph


def find_cycle(graph):
    """One cycle as a list of modules, or None (depth-first search with colours)."""
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        state[n] = 2
        stack.pop()
        return None

    for n in sorted(graph):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_hand_made_cycle_and_accepts_a_chain():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_function_level_imports():
    graph = import_graph()
    assert "helpers.corpus.sampler" in graph["helpers.corpus.novel"]  # imported inside a function
    assert "helpers.corpus.stories_plans" in graph["helpers.corpus.stories"]


def test_helpers_corpus_has_no_import_circle():
    assert find_cycle(import_graph()) is None
