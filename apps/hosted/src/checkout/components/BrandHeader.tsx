import type { CheckoutBrand } from '@cartwheel/sdk';

/** The store's checkout brand: its logo (sized and placed as the merchant set it) and its name. */
export function BrandHeader({
  storeName,
  brand,
}: {
  storeName: string;
  brand?: CheckoutBrand | null | undefined;
}) {
  const header = brand?.header;
  const logo = header?.logo;
  // the wire names the alignment on the header; the settings page sends it with the logo too
  const alignment = (logo as { alignment?: string } | undefined)?.alignment ?? header?.alignment ?? 'SIDE';
  const size = (logo?.size ?? 'MEDIUM').toLowerCase();
  return (
    <header
      className={`brand brand--${alignment === 'CENTER' ? 'center' : 'side'}`}
      style={{
        ...(header?.backgroundColor ? { background: header.backgroundColor } : {}),
        ...(header?.textColor ? { color: header.textColor } : {}),
      }}
    >
      {logo?.image?.url ? (
        <img className={`brand__logo brand__logo--${size}`} src={logo.image.url} alt={`${storeName} logo`} />
      ) : null}
      <span className="brand__name">{storeName}</span>
      <span className="brand__secure">Secure checkout</span>
    </header>
  );
}
