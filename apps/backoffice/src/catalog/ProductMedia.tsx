import { useProductMediaChange } from '@cartwheel/react';
import type { Product } from '@cartwheel/sdk';
import { type FormEvent, useId, useState } from 'react';

/**
 * A product's images: each shown with a button that removes it, and a new one added by its web
 * address (the platform takes an http(s) URL; uploading the file itself is not offered yet).
 */
export function ProductMedia({ product }: { product: Product }) {
  const change = useProductMediaChange();
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
