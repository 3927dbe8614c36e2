import type { Kysely } from 'kysely';
import { invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';

/**
 * Images a merchant uploads from the back office: the bytes kept in `media_uploads` (base64 text, one
 * column type on both databases), served at `/media/uploads/{id}.{ext}`, and added to a product by
 * that URL like any other image. Only raster images are taken (no SVG, which could carry scripts), and
 * the bytes must look like the type they claim.
 */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;

const TYPES: Record<string, { ext: string; magic: (bytes: Buffer) => boolean }> = {
  'image/png': {
    ext: 'png',
    magic: (b) => b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])),
  },
  'image/jpeg': { ext: 'jpg', magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  'image/gif': { ext: 'gif', magic: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  'image/webp': {
    ext: 'webp',
    magic: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
};
const FILE = /^(upl[0-9a-f]{32})\.(png|jpg|gif|webp)$/;

export interface UploadedMedia {
  mediaId: string;
  url: string;
  contentType: string;
  size: number;
}

export class MediaUploads {
  constructor(
    private readonly db: Kysely<any>,
    private readonly publicUrl: string,
  ) {}

  /** Keeps an image given as base64; answers its id and the URL to add to a product. */
  async store(contentType: string, base64: string): Promise<UploadedMedia> {
    const type = TYPES[contentType];
    if (!type)
      throw invalidArgument([
        violation('contentType', `must be one of ${Object.keys(TYPES).join(', ')}`, 'VALIDATION'),
      ]);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64))
      throw invalidArgument([violation('data', 'must be the image as base64', 'FORMAT')]);
    const bytes = Buffer.from(base64, 'base64');
    if (bytes.length === 0) throw invalidArgument([violation('data', 'must not be empty', 'MIN_SIZE')]);
    if (bytes.length > MAX_UPLOAD_BYTES)
      throw invalidArgument([violation('data', `must be at most ${MAX_UPLOAD_BYTES} bytes`, 'MAX_SIZE')]);
    if (!type.magic(bytes))
      throw invalidArgument([violation('data', `is not a ${contentType} image`, 'VALIDATION')]);
    const id = `upl${newId().replace(/-/g, '')}`;
    await this.db
      .insertInto('media_uploads')
      .values({
        id,
        content_type: contentType,
        size: bytes.length,
        data: bytes.toString('base64'),
        created_date: new Date().toISOString(),
      })
      .execute();
    return {
      mediaId: id,
      url: `${this.publicUrl}/media/uploads/${id}.${type.ext}`,
      contentType,
      size: bytes.length,
    };
  }

  /** The bytes of `file` (`upl….png`), or a NOT_FOUND error. */
  async read(file: string): Promise<{ contentType: string; bytes: Buffer }> {
    const match = FILE.exec(file);
    const row = match
      ? await this.db
          .selectFrom('media_uploads')
          .select(['content_type', 'data'])
          .where('id', '=', match[1] as string)
          .executeTakeFirst()
      : undefined;
    if (!row || TYPES[row.content_type]?.ext !== match?.[2]) throw notFound('media', file);
    return { contentType: row.content_type, bytes: Buffer.from(row.data, 'base64') };
  }
}
