import { lstat, readFile, readdir, readlink, realpath } from 'node:fs/promises';
import { basename } from 'node:path';

/**
 * Reads of single sysfs entries that never throw: an entry is there with
 * its text, absent, or there but unusable (unreadable, a dangling link, a
 * directory where a file belongs…) with the reason. Whether absent is odd
 * depends on the entry, so callers decide what to warn about.
 */
export type EntryRead<T> = { readonly value: T } | { readonly missing: true } | { readonly problem: string };

const describe = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code ? `${code} (${(error as Error).message})` : String((error as Error)?.message ?? error);
};

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

/** The first line of an attribute, trimmed (sysfs attributes end in a newline). */
export async function readEntryText(path: string): Promise<EntryRead<string>> {
  try {
    const text = await readFile(path, 'utf8');
    return { value: text.split('\n')[0].trim() };
  } catch (error) {
    return isMissing(error) ? { missing: true } : { problem: describe(error) };
  }
}

/** Every line of an attribute, trimmed, empty ones dropped. */
export async function readEntryLines(path: string): Promise<EntryRead<string[]>> {
  try {
    const text = await readFile(path, 'utf8');
    return { value: text.split('\n').map((line) => line.trim()).filter((line) => line !== '') };
  } catch (error) {
    return isMissing(error) ? { missing: true } : { problem: describe(error) };
  }
}

/**
 * Where a link leads, as the basename of its target (`driver` → `nvidia`,
 * `virtfn0` → `0000:af:02.0`). A link whose target does not exist is a
 * problem: sysfs never holds one, so the entry is stale or broken.
 */
export async function readEntryLink(path: string): Promise<EntryRead<{ readonly name: string; readonly target: string }>> {
  try {
    await lstat(path);
  } catch (error) {
    return isMissing(error) ? { missing: true } : { problem: describe(error) };
  }
  try {
    const [target, resolved] = await Promise.all([readlink(path), realpath(path)]);
    return { value: { name: basename(target), target: resolved } };
  } catch (error) {
    return { problem: isMissing(error) ? 'dangling link (its target does not exist)' : describe(error) };
  }
}

/** The names in a directory, sorted; missing when there is no such directory. */
export async function readEntryNames(path: string): Promise<EntryRead<string[]>> {
  try {
    return { value: (await readdir(path)).sort() };
  } catch (error) {
    return isMissing(error) ? { missing: true } : { problem: describe(error) };
  }
}

/** The real directory behind an entry (following links), or why there is none. */
export async function resolveEntryDirectory(path: string): Promise<EntryRead<string>> {
  try {
    const resolved = await realpath(path);
    const stats = await lstat(resolved);
    return stats.isDirectory() ? { value: resolved } : { problem: 'not a directory' };
  } catch (error) {
    if (!isMissing(error)) return { problem: describe(error) };
    try {
      await lstat(path);
      return { problem: 'dangling link (its target does not exist)' };
    } catch {
      return { missing: true };
    }
  }
}

export const hasValue = <T>(read: EntryRead<T>): read is { readonly value: T } => 'value' in read;
export const problemOf = <T>(read: EntryRead<T>): string | undefined => ('problem' in read ? read.problem : undefined);
