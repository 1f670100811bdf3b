"""ctest's entry to pytest: run.py TEST_FILE [pytest args]. Exit 77 (skipped) when pytest or
numpy is missing, or when every test of the file skipped (conftest.py); else pytest's code."""
import os
import sys


def main():
    try:
        import numpy  # noqa: F401
        import pytest
    except ImportError as e:
        print(f"python tests: skipped: {e} (python3-numpy, python3-pytest)")
        return 77
    os.environ["EV_PYTEST_SKIP77"] = "1"
    here = os.path.dirname(os.path.abspath(__file__))
    return pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", here,
                        "-W", "ignore::DeprecationWarning",
                        os.path.join(here, sys.argv[1]), *sys.argv[2:]])


# the guard matters: Dask's worker processes are spawned and import the main module again
if __name__ == "__main__":
    sys.exit(main())
