import pytest

from referee.testing import Table


def pytest_addoption(parser):
    parser.addoption("--soak", action="store_true", help="run the long soak versions")


@pytest.fixture
def table():
    with Table(seed=7, lang="en") as t:
        yield t


@pytest.fixture
def soak(request) -> bool:
    """True under ``make soak`` (``--soak``): tests marked ``soak`` then run
    their long version; ``make test`` runs the short one."""
    return request.config.getoption("--soak")
