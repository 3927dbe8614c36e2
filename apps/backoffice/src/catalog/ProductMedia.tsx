import { Field } from '@cartwheel/design';
import { useProductMediaChange, useReorderProductMedia } from '@cartwheel/react';
import type { Product } from '@cartwheel/sdk';
import { type DragEvent, type FormEvent, useEffect, useId, useState } from 'react';
import { ActionOutcome } from '../components/notices.tsx';
import { ImageDropZone, imageFileProblem, useImageUpload } from './ImageDropZone.tsx';

/** What a dragged image of the list carries, so the drop zone for files ignores it. */
const MEDIA_DRAG_TYPE = 'application/x-cartwheel-media';

/** `ids` with the one at `from` moved to `to`. */
function moved(ids: readonly string[], from: number, to: number): string[] {
  const next = [...ids];
  const [id] = next.splice(from, 1);
  next.splice(to, 0, id as string);
  return next;
}

/**
 * A product's images, in the order shoppers see them (the first is the main image): each can be
 * dragged to another place or moved earlier or later with its buttons (the keyboard's way), or
 * removed. New ones are dropped on the zone or picked with the file input (uploaded, then added), or
 * added by their web address.
 */
export function ProductMedia({ product }: { product: Product }) {
  const change = useProductMediaChange();
  const reorder = useReorderProductMedia();
  const upload = useImageUpload();
  const [message, setMessage] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [dragged, setDragged] = useState<number>();
  const [refocus, setRefocus] = useState<{ mediaId: string; focus: 'earlier' | 'later' }>();
  const id = useId();
  const items = product.media?.items ?? [];
  const productId = product.id ?? '';
  const busy = change.isPending || reorder.isPending;

  // the keyboard stays on the image it moved, at its new place (its other button once at an end)
  useEffect(() => {
    if (!refocus || busy) return;
    const other = refocus.focus === 'earlier' ? 'later' : 'earlier';
    for (const which of [refocus.focus, other]) {
      const button = document.getElementById(`${id}-${which}-${refocus.mediaId}`);
      if (button instanceof HTMLButtonElement && !button.disabled) {
        button.focus();
        break;
      }
    }
    setRefocus(undefined);
  }, [refocus, busy, id]);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(undefined);
    setProblem(undefined);
    const form = event.currentTarget;
    const url = String(new FormData(form).get('url') ?? '').trim();
    if (!/^https?:\/\/\S+$/.test(url)) return setProblem('The image’s web address, starting with https://.');
    try {
      await change.mutateAsync({ productId, add: [{ url }] });
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
      const refused = imageFileProblem(file);
      if (refused) {
        setProblem(refused);
        continue;
      }
      try {
        setMessage(`Uploading ${file.name}…`);
        const url = await upload.upload(file);
        await change.mutateAsync({ productId, add: [{ url }] });
        added++;
      } catch (error) {
        setProblem(`${file.name} was not added: ${(error as Error).message}.`);
      }
    }
    setMessage(added > 0 ? `${added} image${added === 1 ? ' was' : 's were'} uploaded.` : undefined);
  }

  async function remove(mediaId: string, position: number) {
    setMessage(undefined);
    setProblem(undefined);
    try {
      await change.mutateAsync({ productId, remove: [mediaId] });
      setMessage(`Image ${position} was removed.`);
    } catch (error) {
      setProblem(`It was not removed: ${(error as Error).message}.`);
    }
  }

  /** Moves the image at `from` to `to` (0-based); `focus` names the button to keep the focus on. */
  async function move(from: number, to: number, focus?: 'earlier' | 'later') {
    if (to < 0 || to >= items.length || from === to) return;
    setMessage(undefined);
    setProblem(undefined);
    const ids = items.map((item) => item.id ?? '');
    const mediaId = ids[from] as string;
    try {
      await reorder.mutateAsync({ productId, mediaIds: moved(ids, from, to) });
      setMessage(`Image ${from + 1} is now number ${to + 1}${to === 0 ? ', the main image' : ''}.`);
      if (focus) setRefocus({ mediaId, focus });
    } catch (error) {
      setProblem(`The images were not reordered: ${(error as Error).message}.`);
    }
  }

  const dropOn = (index: number) => (event: DragEvent<HTMLLIElement>) => {
    if (dragged === undefined || !event.dataTransfer.types.includes(MEDIA_DRAG_TYPE)) return;
    event.preventDefault();
    const from = dragged;
    setDragged(undefined);
    void move(from, index);
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Images</h2>
      {items.length === 0 ? (
        <p className="muted">No images yet. The first one added is the product’s main image.</p>
      ) : (
        <>
          <p className="muted hint" id={`${id}-order-hint`}>
            The first image is the main one. Drag an image to another place, or move it with its buttons.
          </p>
          <ol className="media-list" aria-describedby={`${id}-order-hint`}>
            {items.map((item, index) => {
              const mediaId = item.id ?? String(index);
              return (
                <li
                  key={mediaId}
                  data-testid="media-item"
                  className={dragged === index ? 'media-item--dragged' : undefined}
                  draggable={!busy}
                  onDragStart={(event) => {
                    event.dataTransfer.setData(MEDIA_DRAG_TYPE, mediaId);
                    event.dataTransfer.effectAllowed = 'move';
                    setDragged(index);
                  }}
                  onDragEnd={() => setDragged(undefined)}
                  onDragOver={(event) => {
                    if (event.dataTransfer.types.includes(MEDIA_DRAG_TYPE)) event.preventDefault();
                  }}
                  onDrop={dropOn(index)}
                >
                  <img
                    src={item.thumbnail?.url ?? item.image?.url}
                    alt={`${product.name}, number ${index + 1}${index === 0 ? ' (main image)' : ''}`}
                  />
                  <span className="media-item__moves">
                    <button
                      id={`${id}-earlier-${mediaId}`}
                      className="button button--quiet"
                      type="button"
                      disabled={busy || index === 0}
                      onClick={() => void move(index, index - 1, 'earlier')}
                    >
                      <span aria-hidden="true">←</span>
                      <span className="visually-hidden">Move image {index + 1} earlier</span>
                    </button>
                    <button
                      id={`${id}-later-${mediaId}`}
                      className="button button--quiet"
                      type="button"
                      disabled={busy || index === items.length - 1}
                      onClick={() => void move(index, index + 1, 'later')}
                    >
                      <span aria-hidden="true">→</span>
                      <span className="visually-hidden">Move image {index + 1} later</span>
                    </button>
                  </span>
                  <button
                    id={`${id}-remove-${index + 1}`}
                    className="button button--quiet"
                    type="button"
                    disabled={busy}
                    onClick={() => remove(item.id ?? '', index + 1)}
                  >
                    Remove image {index + 1}
                  </button>
                </li>
              );
            })}
          </ol>
        </>
      )}
      <ImageDropZone
        legend="Upload images"
        multiple
        disabled={upload.isPending || change.isPending}
        onFiles={(files) => void uploadFiles(files)}
      />
      <form className="toolbar" onSubmit={add} noValidate>
        <Field compact label="Image address" name="url" type="url" placeholder="https://…" />
        <button className="button" type="submit" disabled={change.isPending}>
          Add image
        </button>
      </form>
      <ActionOutcome message={message} problem={problem} />
    </section>
  );
}
