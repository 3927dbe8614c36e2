import { createHash } from 'node:crypto';
import type { MediaItem } from '@cartwheel/sdk';
import { linkTo } from '../shared/public-links.ts';

/**
 * Product images the platform draws itself (the demo store has no internet): an SVG per name, with
 * shapes and colours from a random seeded by the name and the name's initials. The file name is the
 * whole recipe, `classic-tee.svg` or `classic-tee--1f2937.svg` for a colour choice, so any image can
 * be drawn again on request and cached forever.
 */
export const IMAGE_SIZE = 800;
const STEM = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:--[0-9a-f]{6})?$/;

const PALETTE = [
  '#2563eb',
  '#7c3aed',
  '#db2777',
  '#ea580c',
  '#16a34a',
  '#0891b2',
  '#ca8a04',
  '#4f46e5',
  '#be123c',
  '#0f766e',
];

export function isGeneratedImageStem(stem: string): boolean {
  return stem.length <= 120 && STEM.test(stem);
}

/** The stem of a generated image for a name and an optional colour (`#1f2937`). */
export function imageStem(name: string, color?: string): string {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 100) || 'image';
  const hex = color?.match(/^#([0-9a-fA-F]{6})$/)?.[1]?.toLowerCase();
  return hex ? `${base}--${hex}` : base;
}

/**
 * A media item pointing at a generated image; its id is the stem, so adding it twice is one item. Its
 * url is the platform's own (`linkTo`): an answer names the answering process's address.
 */
export function generatedMediaItem(stem: string, title: string): MediaItem {
  const url = linkTo(`/media/${stem}.svg`);
  return {
    id: stem,
    title,
    mediaType: 'image',
    image: { url, width: IMAGE_SIZE, height: IMAGE_SIZE, format: 'svg' },
    thumbnail: { url, width: 50, height: 50, format: 'svg' },
  };
}

/** A media item for an image elsewhere on the web, added by URL. */
export function urlMediaItem(id: string, url: string, title?: string): MediaItem {
  return {
    id,
    title: title ?? '',
    mediaType: 'image',
    image: { url, width: IMAGE_SIZE, height: IMAGE_SIZE },
    thumbnail: { url, width: 50, height: 50 },
  };
}

export function renderSvg(stem: string): string {
  const [label = 'image', hex] = stem.split('--');
  const random = seededRandom(label);
  const background = hex ? `#${hex}` : (PALETTE[Math.floor(random() * PALETTE.length)] as string);
  const words = label.split('-').filter((word) => !/^\d+$/.test(word));
  const initials = (
    words
      .slice(0, 2)
      .map((word) => word[0])
      .join('') || 'C'
  ).toUpperCase();
  const shapes: string[] = [];
  for (let i = 0; i < 6; i++) {
    const x = Math.round(random() * IMAGE_SIZE);
    const y = Math.round(random() * IMAGE_SIZE);
    const size = Math.round(80 + random() * 260);
    const opacity = (0.12 + random() * 0.25).toFixed(2);
    const fill = random() > 0.5 ? '#ffffff' : '#000000';
    shapes.push(
      random() > 0.5
        ? `<circle cx="${x}" cy="${y}" r="${size / 2}" fill="${fill}" fill-opacity="${opacity}"/>`
        : `<rect x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size}" rx="${Math.round(size / 8)}" transform="rotate(${Math.round(random() * 90)} ${x} ${y})" fill="${fill}" fill-opacity="${opacity}"/>`,
    );
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_SIZE}" height="${IMAGE_SIZE}" viewBox="0 0 ${IMAGE_SIZE} ${IMAGE_SIZE}">`,
    `<rect width="${IMAGE_SIZE}" height="${IMAGE_SIZE}" fill="${background}"/>`,
    ...shapes,
    `<text x="50%" y="50%" dominant-baseline="central" text-anchor="middle" font-family="system-ui, sans-serif" font-size="240" font-weight="700" fill="#ffffff" fill-opacity="0.92">${initials}</text>`,
    '</svg>',
  ].join('');
}

/** mulberry32 seeded by the name's hash: the same name draws the same picture. */
function seededRandom(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
