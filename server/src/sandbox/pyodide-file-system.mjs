// Pyodide's file system is Emscripten's in-memory MEMFS: nothing of the host is
// mounted (no NODEFS; a test checks), so host files are out of reach. Every
// interpreter has its own file system, discarded with it after one run, so
// nothing written survives into the next run. These guards keep learner code
// from rewriting the standard library under its own feet (e.g. a `json.py`
// dropped next to it) and from filling the worker's memory with files.

/** Writable paths other than the scratch directory. */
const WRITABLE_DEVICES = new Set(['/dev/null']);

/**
 * Only nodes inside `scratchDir` may be created, written, truncated, renamed or
 * deleted. Emscripten routes all of these through `FS.nodePermissions` on the
 * resolved node (after symlinks), so one override covers them all. Outside the
 * scratch area mode bits are ignored for reading, so a chmod cannot lock the
 * standard library away from the interpreter's own imports.
 * @param {any} FS Emscripten's FS object (pyodide.FS) of one interpreter.
 * @param {{ scratchDir: string, maxScratchBytes: number, maxScratchNodes: number, errno: Record<string, number> }} options
 */
export function confineWrites(FS, options) {
  const { scratchDir, maxScratchBytes, maxScratchNodes, errno } = options;
  const isInScratch = (node) => {
    const path = FS.getPath(node);
    return path === scratchDir || path.startsWith(`${scratchDir}/`);
  };

  const nodePermissions = FS.nodePermissions;
  FS.nodePermissions = (node, permissions) => {
    if (FS.ignorePermissions) return 0;
    if (isInScratch(node)) return nodePermissions(node, permissions);
    if (!permissions.includes('w') || WRITABLE_DEVICES.has(FS.getPath(node))) return 0;
    return errno.EACCES;
  };

  // A quota on what goes into scratch during the interpreter's one run: bytes
  // written (counted as they are written, so rewriting a file counts again) and
  // nodes created.
  let bytesWritten = 0;
  let nodesCreated = 0;
  const write = FS.write;
  FS.write = (stream, buffer, offset, length, position, canOwn) => {
    if (isInScratch(stream.node)) {
      bytesWritten += length;
      if (bytesWritten > maxScratchBytes) throw new FS.ErrnoError(errno.ENOSPC);
    }
    return write(stream, buffer, offset, length, position, canOwn);
  };
  const doTruncate = FS.doTruncate;
  FS.doTruncate = (stream, node, length) => {
    if (isInScratch(node) && length > maxScratchBytes) throw new FS.ErrnoError(errno.ENOSPC);
    return doTruncate(stream, node, length);
  };
  const mknod = FS.mknod;
  FS.mknod = (path, mode, device) => {
    nodesCreated += 1;
    if (nodesCreated > maxScratchNodes) throw new FS.ErrnoError(errno.ENOSPC);
    return mknod(path, mode, device);
  };

  FS.mkdirTree(scratchDir);
  FS.mount(FS.filesystems.MEMFS, {}, scratchDir);
}

/**
 * Describes the mounts, to prove in tests that no host directory is mounted.
 * @param {any} FS
 * @returns {{ path: string, type: string }[]}
 */
export function listMounts(FS) {
  const names = new Map(Object.entries(FS.filesystems).map(([name, type]) => [type, name]));
  const mounts = [];
  const visit = (mount) => {
    mounts.push({ path: mount.mountpoint, type: names.get(mount.type) ?? 'special' });
    mount.mounts.forEach(visit);
  };
  visit(FS.root.mount);
  return mounts;
}

/**
 * Pyodide itself creates and removes `/dev/capture_stderr` while it formats some
 * errors (a KeyboardInterrupt can land there). Those two internal steps run with
 * Emscripten's own `ignorePermissions` switch, which no learner code can reach.
 * @param {any} api pyodide._api
 * @param {any} FS
 */
export function exemptPyodideInternals(api, FS) {
  for (const name of ['capture_stderr', 'restore_stderr']) {
    const original = api[name];
    api[name] = (...args) => {
      const previous = FS.ignorePermissions;
      FS.ignorePermissions = true;
      try {
        return original(...args);
      } finally {
        FS.ignorePermissions = previous;
      }
    };
  }
}
