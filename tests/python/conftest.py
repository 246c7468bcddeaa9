"""What the Python tests share (pytest): the collnoise binary, and a folder to work in.

ctest runs each module alone, with Debian's python3 (h5py, numpy, pandas, matplotlib; not the
pyenv shim) and the paths of the build (tests/CMakeLists.txt, collnoise_python_test):

    /usr/bin/python3 -m pytest tests/python/test_reader.py \
        --collnoise-binary build/collnoise --work-dir build/tests/python_reader

By hand the same line works; without --collnoise-binary the binary is $COLLNOISE_BINARY, else
build/collnoise in the source tree; without --work-dir the module works in a fresh temporary
folder of pytest's.
"""
import os
import shutil

import pytest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pytest_addoption(parser):
    parser.addoption("--collnoise-binary", help="the collnoise binary (default: "
                     "$COLLNOISE_BINARY, else build/collnoise of the source tree)")
    parser.addoption("--work-dir", help="the folder a module works in, emptied first (default: "
                     "a temporary folder)")


@pytest.fixture(scope="session")
def binary(request) -> str:
    """The absolute path of the collnoise binary the tests run."""
    path = (request.config.getoption("--collnoise-binary") or os.environ.get("COLLNOISE_BINARY")
            or os.path.join(SOURCE, "build", "collnoise"))
    path = os.path.abspath(path)
    if not os.access(path, os.X_OK):
        pytest.fail(f"no collnoise binary at {path}: build it, or give --collnoise-binary")
    return path


@pytest.fixture(scope="module")
def work(request, tmp_path_factory) -> str:
    """An empty folder for the module, the current directory while its tests run."""
    given = request.config.getoption("--work-dir")
    if given:
        folder = os.path.abspath(given)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    else:
        folder = str(tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1]))
    before = os.getcwd()
    os.chdir(folder)
    yield folder
    os.chdir(before)
