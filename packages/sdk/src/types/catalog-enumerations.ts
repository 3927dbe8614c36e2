/**
 * Runtime lists for the v1 catalog's enumerations whose types live in catalog.ts, so the platform
 * validates against the same values (`satisfies` keeps each list and its type in step).
 */
import type { DigitalFileType, MediaItemType, OptionType, ProductType } from './catalog.ts';

export const PRODUCT_TYPES = ['physical', 'digital'] as const satisfies readonly ProductType[];
export const OPTION_TYPES = ['drop_down', 'color'] as const satisfies readonly OptionType[];
export const MEDIA_ITEM_TYPES = [
  'image',
  'video',
  'audio',
  'document',
  'zip',
] as const satisfies readonly MediaItemType[];
export const DIGITAL_FILE_TYPES = [
  'SECURE_PICTURE',
  'SECURE_VIDEO',
  'SECURE_DOCUMENT',
  'SECURE_MUSIC',
  'SECURE_ARCHIVE',
] as const satisfies readonly DigitalFileType[];
