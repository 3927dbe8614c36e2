import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** What a sealed value starts with; a base32 TOTP secret (A-Z, 2-7) never does. */
const SEALED = 'cw1.';

/** A key that seals: its 32 bytes for AES-256-GCM and a short id written beside what it sealed. */
interface SealingKey {
  id: string;
  bytes: Buffer;
}

/** The 32 bytes and id of a key given as text (CARTWHEEL_SECRET_KEY, or the one the database keeps). */
export function sealingKey(text: string): SealingKey {
  const bytes = Buffer.from(hkdfSync('sha256', text, 'cartwheel', 'identity factor secrets', 32));
  const id = createHash('sha256').update(bytes).digest('hex').slice(0, 8);
  return { id, bytes };
}

/**
 * The second factors' shared secrets at rest: sealed with AES-256-GCM under the current key (the
 * environment's CARTWHEEL_SECRET_KEY when set, else a key the database keeps), as
 * `cw1.<key id>.<iv>.<tag>.<ciphertext>`. Opening takes a secret sealed under any key it knows (the
 * database's, from before CARTWHEEL_SECRET_KEY was set) and a secret stored before sealing existed,
 * as it is; `isCurrent` says which stored values to seal again.
 */
export class SecretBox {
  private keys: Promise<{ current: SealingKey; known: SealingKey[] }> | undefined;

  constructor(private readonly loadKeys: () => Promise<{ current: SealingKey; known: SealingKey[] }>) {}

  async seal(plain: string): Promise<string> {
    const { current } = await this.load();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', current.bytes, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [SEALED + current.id, iv, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The secret `stored` holds; undefined when it was sealed under a key this process does not have. */
  async open(stored: string): Promise<string | undefined> {
    if (!stored.startsWith(SEALED)) return stored;
    const [id, iv, tag, sealed] = stored.slice(SEALED.length).split('.');
    const key = (await this.load()).known.find((known) => known.id === id);
    if (!key || !iv || !tag || sealed === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return undefined;
    }
  }

  /** Whether `stored` is sealed under the current key (else it is to be sealed again). */
  async isCurrent(stored: string): Promise<boolean> {
    return stored.startsWith(`${SEALED}${(await this.load()).current.id}.`);
  }

  private load() {
    this.keys ??= this.loadKeys().catch((error: unknown) => {
      this.keys = undefined;
      throw error;
    });
    return this.keys;
  }
}
