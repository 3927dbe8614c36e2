import type { Cart, LineItem } from '@cartwheel/sdk';

/**
 * At or below this many left, a product page and a cart line say how many remain even when the
 * quantity fits; with more, the count is no news to the shopper ("Only 21 left" is not low stock).
 */
export const FEW_LEFT = 5;

export interface LineAvailability {
  /** What the line says about its stock ("Only 2 left", "Out of stock"), or nothing when all is well. */
  label?: string;
  /** Whether the line keeps the cart from checking out as it is. */
  blocksCheckout: boolean;
}

/** A line's availability as the platform priced it (`availability.status` and `quantityAvailable`). */
export function lineAvailability(line: LineItem): LineAvailability {
  const left = line.availability?.quantityAvailable;
  switch (line.availability?.status) {
    case 'NOT_FOUND':
      return { label: 'No longer available', blocksCheckout: true };
    case 'NOT_AVAILABLE':
      return { label: left === 0 ? 'Out of stock' : 'No longer available', blocksCheckout: true };
    case 'PARTIALLY_AVAILABLE':
      return left
        ? { label: `Only ${left} left`, blocksCheckout: true }
        : { label: 'Out of stock', blocksCheckout: true };
    default:
      return typeof left === 'number' && left <= FEW_LEFT
        ? { label: `Only ${left} left`, blocksCheckout: false }
        : { blocksCheckout: false };
  }
}

/** Why the cart cannot check out as it is, in a sentence the shopper can act on; nothing when it can. */
export function checkoutBlocker(cart: Cart | null | undefined): string | undefined {
  const lines = cart?.lineItems ?? [];
  if (lines.length === 0) return 'Your cart is empty.';
  const blocked = lines.filter((line) => lineAvailability(line).blocksCheckout);
  if (blocked.length === 0) return undefined;
  const names = blocked.map(lineName).join(', ');
  return `Some items can't be bought as they are (${names}). Lower their quantity or remove them to check out.`;
}

export function lineName(line: LineItem): string {
  return line.productName?.translated || line.productName?.original || 'Item';
}

/** The chosen options of a line, "Size: M, Color: Navy". */
export function lineOptions(line: LineItem): string {
  return (line.descriptionLines ?? [])
    .map((description) => {
      const name = description.name?.translated || description.name?.original;
      const value =
        description.plainText?.translated ||
        description.plainText?.original ||
        description.colorInfo?.translated ||
        description.colorInfo?.original;
      return name && value ? `${name}: ${value}` : (value ?? name ?? '');
    })
    .filter(Boolean)
    .join(', ');
}
