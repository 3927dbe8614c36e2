import type { MediaImage, MediaItem } from '@cartwheel/sdk';

/** A product or collection picture; a quiet placeholder when the merchant gave none. */
export function ProductImage({
  media,
  image,
  alt,
  className,
}: {
  media?: MediaItem | undefined;
  image?: MediaImage | undefined;
  alt: string;
  className?: string;
}) {
  const source = image ?? media?.image ?? media?.thumbnail;
  if (!source?.url) {
    return (
      <div
        className={`image-placeholder ${className ?? ''}`}
        {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })}
      >
        <span aria-hidden="true">{alt.slice(0, 1).toUpperCase()}</span>
      </div>
    );
  }
  return <img className={className} src={source.url} alt={source.altText || alt} loading="lazy" />;
}
