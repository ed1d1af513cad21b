"""A thread pool whose threads never keep the process alive, so `exit` ends the server at once."""

from __future__ import annotations

import queue
import threading
from concurrent.futures import Executor, Future


class DaemonPool(Executor):
    """``ThreadPoolExecutor``'s contract on daemon threads: an analysis still running when the
    client sends ``exit`` is abandoned with the process instead of being waited for."""

    def __init__(self, workers: int, name: str):
        self._work: queue.SimpleQueue = queue.SimpleQueue()
        self._closed = False
        self._threads = [threading.Thread(target=self._run, name=f"{name}-{i}", daemon=True) for i in range(workers)]
        for thread in self._threads:
            thread.start()

    def submit(self, fn, /, *args, **kwargs) -> Future:
        if self._closed:
            raise RuntimeError("cannot schedule new futures after shutdown")
        future: Future = Future()
        self._work.put((future, fn, args, kwargs))
        return future

    def _run(self) -> None:
        while (item := self._work.get()) is not None:
            future, fn, args, kwargs = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as error:  # noqa: BLE001 - handed to whoever awaits the future
                future.set_exception(error)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._closed = True
        if cancel_futures:
            try:
                while (item := self._work.get_nowait()) is not None:
                    item[0].cancel()
            except queue.Empty:
                pass
        for _ in self._threads:
            self._work.put(None)
        if wait:
            for thread in self._threads:
                if thread is not threading.current_thread():
                    thread.join()
