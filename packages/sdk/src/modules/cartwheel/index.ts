/** Cartwheel's own calls: `createClient({ auth, modules: { cartwheelMedia } })`. */
export {
  CARTWHEEL_API,
  cartwheelMedia,
  type UploadableImageType,
  type UploadedMedia,
} from './media.ts';
