"""The old spelling of the grade command (``helpers.exercises`` + ``grade``): it still works and says where
the command lives now, ``python -m helpers.grading SUBMISSIONS/ --out grades.csv``."""

import sys

MOVED = "评分命令已移到 (the grade command moved to)：python -m helpers.grading SUBMISSIONS/ --out grades.csv"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    print(MOVED, file=sys.stderr)
    if not argv or argv[0] != "grade":
        return 2
    from helpers.grading.__main__ import main as grading_main

    return grading_main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
