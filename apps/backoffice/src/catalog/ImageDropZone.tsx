import { Field } from '@cartwheel/design';
import { useUploadMedia } from '@cartwheel/react';
import type { UploadableImageType } from '@cartwheel/sdk';
import { useState } from 'react';

const IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const MAX_BYTES = 2 * 1024 * 1024;

/** Why a file cannot be uploaded as an image, or undefined when it can (the platform's own limits). */
export function imageFileProblem(file: File): string | undefined {
  if (!IMAGE_TYPES.includes(file.type)) return `${file.name} is not a PNG, JPEG, GIF or WebP image.`;
  if (file.size > MAX_BYTES) return `${file.name} is larger than 2 MB.`;
  return undefined;
}

/** Uploads an image file's bytes through the platform's media call; answers its URL. */
export function useImageUpload() {
  const upload = useUploadMedia();
  return {
    isPending: upload.isPending,
    async upload(file: File): Promise<string> {
      const data = new Uint8Array(await file.arrayBuffer());
      return (await upload.mutateAsync({ contentType: file.type as UploadableImageType, data })).url;
    },
  };
}

/**
 * Where image files come in: dropped on the zone, or picked with its file input (the keyboard's way).
 * The product editor's images and the checkout brand's logo both take their files here.
 */
export function ImageDropZone({
  legend,
  multiple,
  disabled,
  onFiles,
}: {
  legend: string;
  multiple: boolean;
  disabled: boolean;
  onFiles(files: File[]): void;
}) {
  const [dragging, setDragging] = useState(false);
  return (
    // the fieldset is the drop target (drag handlers, its dragging look), which the kit's FieldGroup does not take
    <fieldset
      className={`drop-zone${dragging ? ' drop-zone--active' : ''}`}
      data-testid="drop-zone"
      onDragOver={(event) => {
        // only files are taken here: a dragged image of the list is reordered, not uploaded
        if (!event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        if (event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        setDragging(false);
        onFiles([...event.dataTransfer.files]);
      }}
    >
      <legend>{legend}</legend>
      <p>Drop {multiple ? 'images' : 'an image'} here (PNG, JPEG, GIF or WebP, up to 2 MB), or</p>
      <Field
        label={`Choose ${multiple ? 'image files' : 'an image file'}`}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        multiple={multiple}
        disabled={disabled}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          onFiles(files);
        }}
      />
    </fieldset>
  );
}
