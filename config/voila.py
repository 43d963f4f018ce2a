"""Voila settings for serving the RRF k explorer to a classroom (`make explorer` reads this file).

Voila gives every page load a kernel (a Python process of about 110 MB once it has run the explorer).
Five rules keep their number bounded, the wait short and the page offline:

1. A page's kernel goes when the page goes: when the last websocket of a kernel closes (the tab
   was closed, reloaded, or its browser crashed) and no page reconnects within
   ``release_after_seconds``, the kernel is shut down. (Voila's own shutdown request, sent by the
   page on unload, is refused with "403 '_xsrf' argument missing" when the page has no ``_xsrf``
   cookie, Voila issue #1458; this rule does not depend on it.)
2. A cap (``ClassroomKernelManager.max_kernels``) that counts running *and starting* kernels,
   checked and reserved in one step, so pages loaded at the same moment cannot overshoot it.
   When a new page would exceed it, kernels no page is connected to that have been idle for
   ``evict_idle_seconds`` are shut down first, least recently used first; if that frees no room,
   the new page gets "503: the explorer is full" instead of a kernel (the page says so in English
   and in Chinese), and open pages keep working.
3. Idle culling (jupyter_server's own): a kernel with no open page and no activity for
   ``cull_idle_timeout`` seconds is shut down; the check runs every ``cull_interval`` seconds.
4. The page template ``classroom`` (``config/jupyter/voila/templates/classroom``) is Voila's
   ``lab`` template without its two links to Font Awesome on cdn.jsdelivr.net; the icons are
   already in Voila's own bundle, so an offline classroom loads everything from the server.
5. Preheated kernels, when switched on (``make explorer`` does, with a pool of 30:
   ``--VoilaConfiguration.preheat_kernel=True --VoilaConfiguration.default_pool_size=30``): when
   the server starts, Voila starts that many kernels and runs the explorer in them, and a page is
   served from one at once. The pool counts against the cap, its kernels never evict, a kernel for
   the pool that the cap has no room for is not started, a pool entry that failed leaves the pool,
   and a kernel shut down gives its room back to the pool (``ClassroomPool``). With a pool as large
   as the cap (30 and 30) the server holds 30 kernels, whether or not students come.

Matplotlib's list of the system's fonts is built once, when the server starts: a kernel that finds no
list (a new machine or a fresh ``MPLCONFIGDIR``) scans the fonts itself, 0.3 s of CPU, and a class
of kernels starting together would each scan. A child process builds it, so the server itself never
imports matplotlib; the kernels, started with the server's environment, read it.

Change the numbers here for a bigger or smaller machine (each kernel needs about 110 MB of memory),
or on the command line, e.g. ``--ClassroomKernelManager.max_kernels=60`` (and ``make explorer
EXPLORER_POOL=60``; ``EXPLORER_POOL=0`` starts a kernel per page instead).
"""

import asyncio
import functools
import os
import subprocess
import sys
from pathlib import Path

import voila.app
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Float, Integer
from voila.voila_kernel_manager import voila_kernel_manager_factory as _voila_factory  # the original


class ClassroomKernelManager(AsyncMappingKernelManager):
    """Voila's kernel manager: frees a closed page's kernel, caps live kernels, evicts abandoned ones."""

    max_kernels = Integer(
        30, config=True,
        help="Most kernels alive or starting at once; a page load past it evicts or is refused.",
    )
    evict_idle_seconds = Integer(
        60, config=True,
        help="A kernel with no page connected is evicted to make room only after this many idle seconds.",
    )
    release_after_seconds = Float(
        5, config=True,
        help="A kernel whose last page disconnected is shut down after this many seconds without a "
        "reconnection.",
    )

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._starting: set[str] = set()  # IDs reserved by start_kernel, not yet returned
        self._stopping: set[str] = set()  # IDs this manager is shutting down
        self._releases: set[asyncio.Task] = set()  # pending release checks (kept referenced)

    def _occupied(self) -> int:
        """Kernels that count against the cap: running, starting or being stopped."""
        return len(set(self.list_kernel_ids()) | self._starting)

    async def start_kernel(self, *args, kernel_id=None, pooled=False, **kwargs):
        """Start a kernel within the cap; ``pooled`` (a preheated kernel for the pool) never evicts."""
        if kernel_id is not None and kernel_id in self:  # an existing kernel: nothing starts
            return await super().start_kernel(*args, kernel_id=kernel_id, **kwargs)
        kernel_id = kernel_id or self.new_kernel_id()
        if pooled:
            self._refuse_if_full()
        else:
            await self._make_room()
        self._starting.add(kernel_id)  # no await since the last check of the cap: one step
        try:
            return await super().start_kernel(*args, kernel_id=kernel_id, **kwargs)
        finally:
            self._starting.discard(kernel_id)

    def _abandoned(self) -> list[str]:
        """IDs of started kernels no page is connected to, idle long enough to evict, oldest first."""
        from jupyter_server._tz import utcnow

        now = utcnow()
        found = []
        for kernel_id in self.list_kernel_ids():
            if kernel_id in self._starting or kernel_id in self._stopping:
                continue  # still starting (no last_activity yet) or already on its way out
            kernel = self.get_kernel(kernel_id)
            idle = (now - kernel.last_activity).total_seconds()
            if self._kernel_connections.get(kernel_id, 0) == 0 and idle >= self.evict_idle_seconds:
                found.append((kernel.last_activity, kernel_id))
        return [kernel_id for _, kernel_id in sorted(found)]

    async def _stop(self, kernel_id: str, why: str, kind: str) -> None:
        """Shut a kernel down once, however many rules ask for it at the same time."""
        if kernel_id in self._stopping or kernel_id not in self:
            return
        self._stopping.add(kernel_id)
        try:
            self.log.info("%s: shutting down %s kernel %s", why, kind, kernel_id)
            await self.shutdown_kernel(kernel_id)
        finally:
            self._stopping.discard(kernel_id)

    async def _make_room(self) -> None:
        excess = self._occupied() - self.max_kernels + 1
        if excess > 0:
            evict = self._abandoned()[:excess]
            why = f"max_kernels={self.max_kernels} reached"
            await asyncio.gather(*(self._stop(kernel_id, why, "abandoned") for kernel_id in evict))
        self._refuse_if_full()

    def _refuse_if_full(self) -> None:
        if self._occupied() >= self.max_kernels:
            raise web.HTTPError(  # the page (classroom/503.html) shows each line of the message
                503,
                f"the explorer is full: {self.max_kernels} pages are open (the limit set in "
                "config/voila.py); try again when someone closes theirs\n"
                f"RRF k 探索器已满：已经打开了 {self.max_kernels} 个页面（config/voila.py 里设定的上限）；"
                "请等有人关掉自己的页面后再试",
                reason="the explorer is full, try again when another page is closed",  # status line: ASCII
            )

    def notify_disconnect(self, kernel_id):
        super().notify_disconnect(kernel_id)
        if self._kernel_connections.get(kernel_id) == 0:
            task = asyncio.ensure_future(self._release_if_unused(kernel_id))
            self._releases.add(task)
            task.add_done_callback(self._releases.discard)

    async def _release_if_unused(self, kernel_id: str) -> None:
        await asyncio.sleep(self.release_after_seconds)
        if self._kernel_connections.get(kernel_id, 0) == 0:
            await self._stop(kernel_id, f"page closed {self.release_after_seconds:g} s ago", "unused")


class ClassroomPool:
    """The preheated pool's rules, over Voila's own pool (``voila_kernel_manager.VoilaKernelManager``).

    Voila builds its pool class on top of ``ClassroomKernelManager``, so its methods hide ours; this
    class goes on top of Voila's (``_classroom_factory``) and changes four things:

    * a pool kernel counts against the cap and never evicts: a refill the cap has no room for is
      not started (Voila refills one kernel for every page it serves, so with a cap above the pool
      the server would hold up to twice the class);
    * a pool entry that failed (a refused refill, a kernel that did not start) leaves the pool at
      once, so no page is served from it (Voila keeps it, and the next page gets its error);
    * the notebook is registered as preheated as soon as the server starts, not when the first pool
      kernel has started: a page requested meanwhile waits for a pool kernel instead of starting a
      kernel of its own, which the pool has already taken the room of;
    * the room a kernel leaves when it is shut down (its page closed, or culled) goes back to the
      pool (Voila refills only when it serves a page, so a pool the cap had emptied stayed empty).
    """

    def __init__(self, **kwargs):
        self._closing = False  # shutdown_all has begun: nothing refills the pool
        super().__init__(**kwargs)
        if self.notebook_path is not None:
            asyncio.get_event_loop().create_task(self._register(self.notebook_path))

    async def _register(self, notebook_name: str) -> None:
        renderer = self._notebook_renderer_factory(notebook_name)
        await renderer.initialize()
        self.notebook_data.setdefault(renderer.notebook_path, {
            "notebook": renderer.notebook, "template": renderer.template_name, "theme": renderer.theme,
            "kernel_name": renderer.notebook.metadata.kernelspec.name, "kernel_ids": set(),
        })

    async def _initialize(self, notebook_path, kernel_id=None, **kwargs):
        if kernel_id is None:  # a new pool kernel (not a restart)
            self._refuse_if_full()  # before rendering anything; start_kernel checks again
            kwargs["pooled"] = True
        return await super()._initialize(notebook_path, kernel_id, **kwargs)

    def fill_if_needed(self, delay=None, notebook_name=None, **kwargs):
        known = set(self._pools.get(notebook_name, []))
        super().fill_if_needed(delay=delay, notebook_name=notebook_name, **kwargs)
        pool = self._pools[notebook_name]
        for entry in pool:
            if entry not in known:
                entry.add_done_callback(functools.partial(self._drop_failed, pool))

    def _drop_failed(self, pool: list, entry: asyncio.Future) -> None:
        if not entry.cancelled() and entry.exception() is None:
            return
        if entry in pool:
            pool.remove(entry)
        error = "cancelled" if entry.cancelled() else entry.exception()
        full = isinstance(error, web.HTTPError) and error.status_code == 503  # no room: the usual case
        (self.log.debug if full else self.log.warning)(
            "a kernel for the pool was not started (%s); %d left in the pool", error, len(pool))

    async def shutdown_kernel(self, kernel_id, *args, **kwargs):
        """Shut a kernel down; the room it leaves goes back to the pool (unless the server is stopping)."""
        await super().shutdown_kernel(kernel_id, *args, **kwargs)
        if not self._closing and self.notebook_path is not None:
            self.fill_if_needed(notebook_name=self.notebook_path)

    async def shutdown_all(self, *args, **kwargs):
        self._closing = True
        await super().shutdown_all(*args, **kwargs)


def _classroom_factory(base_class, preheat_kernel, default_pool_size, page_config_hook=None):
    """Voila's factory of its kernel manager class, with ``ClassroomPool`` on top when preheating."""
    made = _voila_factory(base_class, preheat_kernel, default_pool_size, page_config_hook)
    return type("ClassroomPoolManager", (ClassroomPool, made), {}) if preheat_kernel else made


# Voila 0.5 makes its kernel manager class with this factory when the server starts (after reading
# this file); a Voila without it stops here, rather than serving the pool without the rules above.
if not hasattr(voila.app, "voila_kernel_manager_factory"):
    raise RuntimeError("config/voila.py needs Voila 0.5's voila.app.voila_kernel_manager_factory")
voila.app.voila_kernel_manager_factory = _classroom_factory

c = get_config()  # noqa: F821 - traitlets provides get_config() to config files

c.VoilaConfiguration.multi_kernel_manager_class = ClassroomKernelManager
c.ClassroomKernelManager.max_kernels = 30
c.ClassroomKernelManager.evict_idle_seconds = 60
c.ClassroomKernelManager.release_after_seconds = 5
# A kernel may take over a minute to answer when a class's worth start on 2 cores (the pool's 30 at
# the server's start, 30 pages at once without it); Voila's 60 s then ends the page without the explorer.
c.VoilaExecutor.startup_timeout = 300
# Idle culling: kernels with no page connected and no activity for 10 minutes are shut down.
c.MappingKernelManager.cull_idle_timeout = 600
c.MappingKernelManager.cull_interval = 60
c.MappingKernelManager.cull_connected = False
c.MappingKernelManager.cull_busy = False

# The page template without links to the internet: Voila finds templates on the Jupyter path.
_TEMPLATES_ROOT = str(Path(__file__).resolve().parent / "jupyter")
_jupyter_path = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
if _TEMPLATES_ROOT not in _jupyter_path:
    os.environ["JUPYTER_PATH"] = os.pathsep.join([_TEMPLATES_ROOT, *_jupyter_path])
c.VoilaConfiguration.template = "classroom"

# Matplotlib's font list, built before the first page (a no-op once it exists: 0.4 s at start).
subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"], check=False)
