import { useProductMediaChange, useUploadMedia } from '@cartwheel/react';
import type { Product, UploadableImageType } from '@cartwheel/sdk';
import { type DragEvent, type FormEvent, useId, useState } from 'react';

const IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const MAX_BYTES = 2 * 1024 * 1024;

/**
 * A product's images: each shown with a button that removes it; new ones dropped on the zone or
 * picked with the file input (uploaded, then added), or added by their web address.
 */
export function ProductMedia({ product }: { product: Product }) {
  const change = useProductMediaChange();
  const upload = useUploadMedia();
  const [dragging, setDragging] = useState(false);
  const [message, setMessage] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const id = useId();
  const items = product.media?.items ?? [];

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(undefined);
    setProblem(undefined);
    const form = event.currentTarget;
    const url = String(new FormData(form).get('url') ?? '').trim();
    if (!/^https?:\/\/\S+$/.test(url)) return setProblem('The image’s web address, starting with https://.');
    try {
      await change.mutateAsync({ productId: product.id ?? '', add: [{ url }] });
      setMessage('The image was added.');
      form.reset();
    } catch (error) {
      setProblem(`It was not added: ${(error as Error).message}. What you typed is still here.`);
    }
  }

  async function uploadFiles(files: File[]) {
    setMessage(undefined);
    setProblem(undefined);
    let added = 0;
    for (const file of files) {
      if (!IMAGE_TYPES.includes(file.type)) {
        setProblem(`${file.name} is not a PNG, JPEG, GIF or WebP image.`);
        continue;
      }
      if (file.size > MAX_BYTES) {
        setProblem(`${file.name} is larger than 2 MB.`);
        continue;
      }
      try {
        setMessage(`Uploading ${file.name}…`);
        const data = new Uint8Array(await file.arrayBuffer());
        const uploaded = await upload.mutateAsync({ contentType: file.type as UploadableImageType, data });
        await change.mutateAsync({ productId: product.id ?? '', add: [{ url: uploaded.url }] });
        added++;
      } catch (error) {
        setProblem(`${file.name} was not added: ${(error as Error).message}.`);
      }
    }
    setMessage(added > 0 ? `${added} image${added === 1 ? ' was' : 's were'} uploaded.` : undefined);
  }

  function drop(event: DragEvent<HTMLFieldSetElement>) {
    event.preventDefault();
    setDragging(false);
    void uploadFiles([...event.dataTransfer.files]);
  }

  async function remove(mediaId: string, position: number) {
    setMessage(undefined);
    setProblem(undefined);
    try {
      await change.mutateAsync({ productId: product.id ?? '', remove: [mediaId] });
      setMessage(`Image ${position} was removed.`);
    } catch (error) {
      setProblem(`It was not removed: ${(error as Error).message}.`);
    }
  }

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Images</h2>
      {items.length === 0 ? (
        <p className="muted">No images yet. The first one added is the product’s main image.</p>
      ) : (
        <ul className="media-list">
          {items.map((item, index) => (
            <li key={item.id} data-testid="media-item">
              <img
                src={item.thumbnail?.url ?? item.image?.url}
                alt={`${product.name}, number ${index + 1}`}
              />
              <button
                className="button button--quiet"
                type="button"
                disabled={change.isPending}
                onClick={() => remove(item.id ?? '', index + 1)}
              >
                Remove image {index + 1}
              </button>
            </li>
          ))}
        </ul>
      )}
      <fieldset
        className={`drop-zone${dragging ? ' drop-zone--active' : ''}`}
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <legend>Upload images</legend>
        <p>Drop images here (PNG, JPEG, GIF or WebP, up to 2 MB each), or</p>
        <label htmlFor={`${id}-file`}>Choose image files</label>
        <input
          id={`${id}-file`}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          multiple
          disabled={upload.isPending || change.isPending}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            void uploadFiles(files);
          }}
        />
      </fieldset>
      <form className="toolbar" onSubmit={add} noValidate>
        <label htmlFor={`${id}-url`}>Image address</label>
        <input id={`${id}-url`} name="url" type="url" placeholder="https://…" />
        <button className="button" type="submit" disabled={change.isPending}>
          Add image
        </button>
      </form>
      {message ? (
        <p className="notice" role="status">
          {message}
        </p>
      ) : null}
      {problem ? (
        <p className="alert" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
