import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def serve_in_thread(db):
    """The web table on a free port of 127.0.0.1, in a thread of this process: (its address, a
    function that stops it)."""
    import socket
    import threading
    import time

    import uvicorn

    from interpreter.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning",
                            timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < end, "the web table did not start"
        time.sleep(0.02)

    def stop():
        server.should_exit = True
        thread.join(5)

    return f"http://127.0.0.1:{port}", stop
@pytest.fixture(autouse=True, scope="session")
def _own_cache_folder(tmp_path_factory):
    """`validate` keeps its verdicts in the user's cache folder: the suite's go to a folder of its
    own (one per test process), so that the suite leaves nothing in the user's."""
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if old is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = old
