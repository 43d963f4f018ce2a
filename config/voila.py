"""Voila settings for serving the RRF k explorer to a classroom (`make explorer` reads this file).

Voila starts one kernel (a Python process of about 150 MB) for every page load. Without limits, a
reloaded or abandoned tab keeps its kernel for as long as the server runs. Two rules stop that:

1. Idle culling (jupyter_server's own): a kernel with no open page and no activity for
   ``cull_idle_timeout`` seconds is shut down; the check runs every ``cull_interval`` seconds.
2. A cap (``ClassroomKernelManager.max_kernels``): when a new page would exceed it, the kernels
   that no page is connected to and that have been idle for ``evict_idle_seconds`` are shut
   down first, least recently used first; if that frees no room, the new page gets an error
   "503: the explorer is full" instead of a kernel, and the pages already open keep working.

Change the numbers here for a bigger or smaller machine (each kernel needs about 150 MB of memory),
or on the command line, e.g. ``--ClassroomKernelManager.max_kernels=60``.
"""

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer


class ClassroomKernelManager(AsyncMappingKernelManager):
    """Voila's kernel manager with a cap on live kernels that evicts abandoned ones first."""

    max_kernels = Integer(
        30, config=True, help="Most kernels alive at once; a page load past it evicts or is refused."
    )
    evict_idle_seconds = Integer(
        60, config=True,
        help="A kernel with no page connected is evicted to make room only after this many idle seconds.",
    )

    async def start_kernel(self, *args, **kwargs):
        if kwargs.get("kernel_id") is None:  # a new kernel, not a restart
            await self._make_room()
        return await super().start_kernel(*args, **kwargs)

    def _abandoned(self):
        """IDs of kernels no page is connected to, idle long enough to evict, oldest activity first."""
        from jupyter_server._tz import utcnow

        now = utcnow()
        found = []
        for kernel_id in self.list_kernel_ids():
            kernel = self.get_kernel(kernel_id)
            idle = (now - kernel.last_activity).total_seconds()
            if self._kernel_connections.get(kernel_id, 0) == 0 and idle >= self.evict_idle_seconds:
                found.append((kernel.last_activity, kernel_id))
        return [kernel_id for _, kernel_id in sorted(found)]

    async def _make_room(self):
        excess = len(self.list_kernel_ids()) - self.max_kernels + 1
        for kernel_id in self._abandoned()[: max(excess, 0)]:
            self.log.info("max_kernels=%d reached: shutting down abandoned kernel %s",
                          self.max_kernels, kernel_id)
            await self.shutdown_kernel(kernel_id)
        if len(self.list_kernel_ids()) >= self.max_kernels:
            raise web.HTTPError(
                503,
                f"the explorer is full: {self.max_kernels} pages are open (the limit set in "
                "config/voila.py); try again when someone closes theirs",
                reason="the explorer is full, try again when another page is closed",
            )


c = get_config()  # noqa: F821 - traitlets provides get_config() to config files

c.VoilaConfiguration.multi_kernel_manager_class = ClassroomKernelManager
c.ClassroomKernelManager.max_kernels = 30
c.ClassroomKernelManager.evict_idle_seconds = 60
# Idle culling: kernels with no page connected and no activity for 10 minutes are shut down.
c.MappingKernelManager.cull_idle_timeout = 600
c.MappingKernelManager.cull_interval = 60
c.MappingKernelManager.cull_connected = False
c.MappingKernelManager.cull_busy = False
