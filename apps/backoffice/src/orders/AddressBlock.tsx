import type { AddressWithContact } from '@cartwheel/sdk';

/** An address with its contact, a line each, as the order page and the packing slip show it. */
export function AddressBlock({ value, testId }: { value: AddressWithContact | undefined; testId?: string }) {
  if (!value?.address && !value?.contactDetails) return <p className="muted">None given.</p>;
  const contact = value.contactDetails;
  const address = value.address;
  const lines = [
    [contact?.firstName, contact?.lastName].filter(Boolean).join(' '),
    contact?.company,
    address?.addressLine ??
      [address?.streetAddress?.number, address?.streetAddress?.name].filter(Boolean).join(' '),
    address?.addressLine2,
    [address?.city, address?.subdivision, address?.postalCode].filter(Boolean).join(', '),
    address?.country,
    contact?.phone,
  ].filter((line): line is string => Boolean(line));
  return (
    <address data-testid={testId}>
      {lines.map((line) => (
        <span key={line} className="address-line">
          {line}
        </span>
      ))}
    </address>
  );
}
