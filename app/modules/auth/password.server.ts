import { hash, verify } from "@node-rs/argon2";

/** Argon2id with the library defaults (memory 19 MiB, 2 passes): OWASP's recommended baseline. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
