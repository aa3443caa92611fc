import pytest

from referee.testing import Table


def pytest_addoption(parser):
    parser.addoption("--soak", action="store_true", help="run the long soak versions")


@pytest.fixture
def table():
    with Table(seed=7, lang="en") as t:
        yield t
