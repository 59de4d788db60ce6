"""``python -m helpers.grading SUBMISSIONS/ --out grades.csv``: grade a class's notebooks."""

import sys

USAGE = "用法 (usage)：python -m helpers.grading SUBMISSIONS/ --out grades.csv（--help 列出全部选项）"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        print(USAGE)
        return 2
    from helpers.grading.runner import main as grade_main

    return grade_main(argv)


if __name__ == "__main__":
    sys.exit(main())
