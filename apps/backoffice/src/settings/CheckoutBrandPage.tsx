import { type RadioChoice, RadioGroupField } from '@cartwheel/design';
import { useCheckoutSettings, useUpdateCheckoutSettings } from '@cartwheel/react';
import type { CheckoutLogoSetting, StoreCheckoutSettings } from '@cartwheel/sdk';

type Alignment = StoreCheckoutSettings['checkoutBrand']['header']['alignment'];
type Status = StoreCheckoutSettings['status'];

import { useState } from 'react';
import { ImageDropZone, imageFileProblem, useImageUpload } from '../catalog/ImageDropZone.tsx';
import { useStoreName } from '../config.ts';
import { ChangeError, Notice, SettingsObjectPage } from './common.tsx';

const SIZES: ReadonlyArray<RadioChoice<CheckoutLogoSetting['size']>> = [
  { value: 'SMALL', label: 'Small' },
  { value: 'MEDIUM', label: 'Medium' },
  { value: 'LARGE', label: 'Large' },
];
const ALIGNMENTS: ReadonlyArray<RadioChoice<Alignment>> = [
  { value: 'SIDE', label: 'Beside the store name' },
  { value: 'CENTER', label: 'Centered' },
];
const STATUSES: ReadonlyArray<RadioChoice<Status>> = [
  { value: 'ACTIVE', label: 'Shown on the checkout' },
  { value: 'INACTIVE', label: 'Kept, the checkout shows its plain brand' },
];

/** The checkout brand: the logo the hosted checkout's header shows, its size and alignment. */
export function CheckoutBrandPage() {
  return (
    <SettingsObjectPage heading="Checkout brand" query={useCheckoutSettings()} what="the checkout brand">
      {(settings) => <BrandForm settings={settings} />}
    </SettingsObjectPage>
  );
}

function BrandForm({ settings }: { settings: StoreCheckoutSettings }) {
  const saved = settings.checkoutBrand.header.logo;
  const update = useUpdateCheckoutSettings();
  const upload = useImageUpload();
  const [url, setUrl] = useState(saved?.image?.url ?? '');
  const [size, setSize] = useState<CheckoutLogoSetting['size']>(saved?.size ?? 'MEDIUM');
  const [alignment, setAlignment] = useState<Alignment>(settings.checkoutBrand.header.alignment);
  const [status, setStatus] = useState<Status>(settings.status);
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<string>();

  async function takeFile([file]: File[]) {
    setNotice(undefined);
    setProblem(undefined);
    if (!file) return;
    const refused = imageFileProblem(file);
    if (refused) return setProblem(refused);
    try {
      setNotice(`Uploading ${file.name}…`);
      setUrl(await upload.upload(file));
      setNotice(`${file.name} was uploaded: see the preview, then save.`);
    } catch (error) {
      setNotice(undefined);
      setProblem(`${file.name} was not uploaded: ${(error as Error).message}.`);
    }
  }

  async function save() {
    setNotice(undefined);
    setProblem(undefined);
    try {
      await update.mutateAsync({
        status,
        checkoutBrand: { header: { logo: url ? { image: { url }, size } : null, alignment } },
      });
      setNotice(url ? 'The checkout brand was saved.' : 'The logo was removed from the checkout.');
    } catch {
      // the mutation's error is shown by ChangeError; what was chosen stays
    }
  }

  return (
    <form
      className="panel"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Notice>{notice}</Notice>
      {problem ? (
        <p className="form-alert" role="alert">
          {problem}
        </p>
      ) : null}
      <ChangeError error={update.error} what="Saving the checkout brand" />
      <ImageDropZone
        legend="Logo"
        multiple={false}
        disabled={upload.isPending || update.isPending}
        onFiles={(files) => void takeFile(files)}
      />
      {url ? (
        <p>
          <button className="button button--quiet" type="button" onClick={() => setUrl('')}>
            Remove the logo
          </button>
        </p>
      ) : (
        <p className="muted">No logo: the checkout shows the store’s name alone.</p>
      )}
      <div className="field-row">
        <RadioGroupField
          legend="Logo size"
          name="logo-size"
          options={SIZES}
          value={size}
          onChoose={setSize}
        />
        <RadioGroupField
          legend="Alignment"
          name="logo-alignment"
          options={ALIGNMENTS}
          value={alignment}
          onChoose={setAlignment}
        />
        <RadioGroupField
          legend="Brand"
          name="brand-status"
          options={STATUSES}
          value={status}
          onChoose={setStatus}
        />
      </div>
      <h2 id="brand-preview-title">Preview</h2>
      <BrandPreview url={url} size={size} alignment={alignment} />
      <p>
        <button
          className="button button--primary"
          type="submit"
          disabled={update.isPending || upload.isPending}
        >
          {update.isPending ? 'Saving…' : 'Save checkout brand'}
        </button>
      </p>
    </form>
  );
}

/** The hosted checkout's header as it will look: the same layout, sizes and alignment (checkout.css). */
function BrandPreview({
  url,
  size,
  alignment,
}: {
  url: string;
  size: CheckoutLogoSetting['size'];
  alignment: Alignment;
}) {
  // the name the hosted checkout's header shows beside the logo
  const storeName = useStoreName();
  return (
    <div className={`brand-preview brand-preview--${alignment.toLowerCase()}`} data-testid="brand-preview">
      {url ? (
        <img
          className={`brand-preview__logo brand-preview__logo--${size.toLowerCase()}`}
          src={url}
          alt="Logo preview"
        />
      ) : null}
      <span className="brand-preview__name">{storeName}</span>
      <span className="brand-preview__secure">Secure checkout</span>
    </div>
  );
}
