import fs from "node:fs";
import path from "node:path";
import type { RequestHandler } from "express";

/**
 * Lets a static handler see only the requests for `files` (`listFiles(root)` when the server starts: the
 * build's client folder does not change while it runs). Otherwise every page request reaches
 * `express.static`, which asks the file system for, say, `build/client/dashboard` and builds an error from
 * the answer: a system call and an exception on every page. A request
 * for a path not in the list goes straight on; a listed path is handed to `handler` unchanged, which
 * still does its own checks (dot files, ranges, caching headers).
 */
export function knownFilesOnly(files: ReadonlySet<string>, handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const full = req.baseUrl + req.path;
    if (files.has(full)) return handler(req, res, next);
    // The static handler decodes the path; a listed file asked for with escapes goes to it too.
    if (full.includes("%")) {
      try {
        if (files.has(decodeURIComponent(full))) return handler(req, res, next);
      } catch {
        /* not a valid escape: not a file of the list */
      }
    }
    next();
  };
}

/** The URL paths ("/assets/x.js") of the files under `root` (none when it is missing). */
export function listFiles(root: string): Set<string> {
  const files = new Set<string>();
  if (!fs.existsSync(root)) return files;
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const dir = entry.parentPath ?? (entry as unknown as { path: string }).path;
    files.add("/" + path.relative(root, path.join(dir, entry.name)).split(path.sep).join("/"));
  }
  return files;
}
