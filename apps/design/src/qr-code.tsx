import { encode } from 'uqr';

/**
 * Text as a QR code (an authenticator's `otpauth://` link, say): uqr's modules drawn as one SVG path,
 * no markup injected. `label` names it for screen readers; show the text itself beside it too.
 */
export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const { data, size: modules } = encode(text, { ecc: 'M', border: 2 });
  const cells: string[] = [];
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) cells.push(`M${x} ${y}h1v1h-1z`);
    });
  });
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${modules} ${modules}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
    >
      <rect width={modules} height={modules} fill="#fff" />
      <path d={cells.join('')} fill="#000" />
    </svg>
  );
}
