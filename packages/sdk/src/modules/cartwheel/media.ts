import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import { segment } from '../stores/domains.ts';
import { CARTWHEEL_API } from './domains.ts';

/** An image the platform keeps: add it to a product with `products.addProductMedia(id, [{ url }])`. */
export interface UploadedMedia {
  mediaId: string;
  url: string;
  contentType: string;
  size: number;
}

/** The image types the platform takes, at most 2 MiB. */
export type UploadableImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/**
 * Media uploads, a Cartwheel call (the hosted platform uploads through its media manager instead):
 * `POST /api/cartwheel/media` with the bytes as base64, for a caller who may manage products.
 */
export const cartwheelMedia = {
  uploadMedia:
    (transport: Transport) =>
    async (image: { contentType: UploadableImageType; data: Uint8Array }): Promise<UploadedMedia> => {
      const answer = await transport.request<{ media: UploadedMedia }>({
        method: 'POST',
        path: '/media',
        mapping: CARTWHEEL_API,
        body: { contentType: image.contentType, data: toBase64(image.data) },
        trace: { package: '@cartwheel/sdk', method: 'cartwheel.media.v1.Media.UploadMedia', entity: 'media' },
      });
      return answer.media;
    },
  /**
   * `POST /api/cartwheel/products/{id}/media/order` {mediaIds}: the product's images in a new order,
   * each named once; the first is the main image. A Cartwheel call: the hosted wire has no reorder.
   */
  reorderProductMedia:
    (transport: Transport) =>
    async (productId: string, mediaIds: string[]): Promise<void> => {
      await transport.request({
        method: 'POST',
        path: `/products/${segment(productId)}/media/order`,
        mapping: CARTWHEEL_API,
        body: { mediaIds },
        trace: {
          package: '@cartwheel/sdk',
          method: 'cartwheel.media.v1.Media.ReorderProductMedia',
          entity: 'media',
        },
      });
    },
} satisfies ModuleDefinition;

/** Base64 of bytes, in browsers and Node alike, without a string argument list per byte. */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
