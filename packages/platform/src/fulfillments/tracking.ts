/**
 * Tracking links of the well-known carriers (the hosted platform's predefined shipping providers):
 * a fulfillment naming one of them with a tracking number gets its link without the merchant
 * writing it. Any other provider keeps the link the merchant gave.
 */
const CARRIER_LINKS: Record<string, (number: string) => string> = {
  fedex: (number) => `https://www.fedex.com/fedextrack/?trknbr=${number}`,
  ups: (number) => `https://www.ups.com/track?tracknum=${number}`,
  usps: (number) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${number}`,
  dhl: (number) => `https://www.dhl.com/en/express/tracking.html?AWB=${number}`,
  canadapost: (number) =>
    `https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor=${number}`,
};

export interface TrackingInfo {
  trackingNumber?: string | null | undefined;
  shippingProvider?: string | null | undefined;
  trackingLink?: string | null | undefined;
}

/** `tracking` with its link filled in for a well-known carrier when none was given. */
export function withTrackingLink(tracking: TrackingInfo): TrackingInfo {
  if (tracking.trackingLink || !tracking.trackingNumber || !tracking.shippingProvider) return tracking;
  const link = CARRIER_LINKS[tracking.shippingProvider.replace(/[\s_-]/g, '').toLowerCase()];
  return link ? { ...tracking, trackingLink: link(encodeURIComponent(tracking.trackingNumber)) } : tracking;
}
