import { createHash } from 'node:crypto';
import { imageStem } from '../catalog/media.ts';
import type { MediaInput, ProductInput } from '../catalog/schemas.ts';
import { CatalogService } from '../catalog/service.ts';
import type { PlatformConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import type { Settings } from '../settings/settings.ts';
import type { StoreSettingsService } from '../store-settings/service.ts';
import { DEMO_COLLECTIONS, DEMO_PRODUCTS, type DemoProduct } from './products.ts';
import { seedStoreSettings } from './store-settings.ts';

/**
 * Seeds the demo store on the first start over an empty catalog; a later start leaves it alone. A demo
 * store seeded before store settings existed gets the demo's taxes, shipping and discounts once, on
 * the first start that knows them, unless its merchant has set some of their own.
 */
export async function seedDemoStore(services: {
  settings: Pick<Settings, 'getOrCreate'>;
  catalog: CatalogService;
  storeSettings: StoreSettingsService;
}): Promise<void> {
  // The first process to claim a seed does it, even when several start over one database.
  const now = () => new Date().toISOString();
  const catalogClaim = await services.settings.getOrCreate('demo.seeded_at', now);
  const settingsClaim = await services.settings.getOrCreate('demo.store_settings_seeded_at', now);
  const seedingCatalog = catalogClaim.created && (await services.catalog.isEmpty());
  if (seedingCatalog) await seedCatalog(services.catalog);
  // a catalog claimed but not seeded (the store had products of its own) is no demo store
  const demoStore = seedingCatalog || !catalogClaim.created;
  if (settingsClaim.created && demoStore && (await services.storeSettings.isUnset())) {
    await seedStoreSettings(services);
  }
}

/** `npm run reset-demo`: deletes the catalog and seeds the demo store again. */
export async function resetDemoStore(config: PlatformConfig): Promise<void> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const catalog = new CatalogService(database.db, {
      publicUrl: config.publicUrl,
      dialect: database.dialect,
    });
    await catalog.clear();
    await seedCatalog(catalog);
  } finally {
    await database.close();
  }
}

/** The same store every time: ids come from the names, stock from a hash of them. */
export async function seedCatalog(catalog: CatalogService): Promise<void> {
  const collectionIds = new Map<string, string>();
  for (const collection of DEMO_COLLECTIONS) {
    const created = await catalog.createCollection(
      { ...collection, media: { mediaId: imageStem(collection.name) } },
      { id: stableId(`collection:${collection.slug}`) },
    );
    collectionIds.set(collection.slug, created.id as string);
  }
  const members = new Map<string, string[]>();
  for (const demo of DEMO_PRODUCTS) {
    const id = stableId(`product:${demo.name}`);
    await catalog.createProduct(productInput(demo), { id });
    await catalog.addMedia(id, mediaInput(demo));
    members.set(demo.collection, [...(members.get(demo.collection) ?? []), id]);
  }
  for (const [slug, ids] of members) {
    await catalog.addProductsToCollection(collectionIds.get(slug) as string, ids);
  }
}

function productInput(demo: DemoProduct): ProductInput {
  const options = (demo.options ?? []).map((option) => ({
    name: option.name,
    optionType: option.color ? ('color' as const) : ('drop_down' as const),
    choices: option.choices.map((choice) => {
      const [description, color] = choice.split(':');
      return { value: color ?? description, description };
    }),
  }));
  const combos = combinations(
    options.map((option) => ({
      name: option.name,
      values: option.choices.map((c) => c.description as string),
    })),
  );
  const soldOut = (choices: Record<string, string>) =>
    demo.soldOut === true ||
    Object.values(choices).some((choice) => Array.isArray(demo.soldOut) && demo.soldOut.includes(choice));
  const quantity = (choices: Record<string, string>) =>
    soldOut(choices) ? 0 : 3 + (hash(`${demo.name}:${JSON.stringify(choices)}`) % 38);
  const variantPrice = (choices: Record<string, string>) =>
    Object.values(choices)
      .map((choice) => demo.variantPrices?.[choice])
      .find((price) => price !== undefined);

  return {
    name: demo.name,
    description: demo.description,
    productType: demo.digital ? ('digital' as const) : ('physical' as const),
    priceData: { price: demo.price },
    costAndProfitData: { itemCost: Math.round(demo.price * 38) / 100 },
    ...(demo.discount ? { discount: demo.discount } : {}),
    ...(demo.perUnit
      ? {
          pricePerUnitData: {
            totalQuantity: demo.perUnit[0],
            totalMeasurementUnit: demo.perUnit[1],
            baseQuantity: demo.perUnit[2],
            baseMeasurementUnit: demo.perUnit[3],
          },
        }
      : {}),
    ...(demo.weight !== undefined ? { weight: demo.weight } : {}),
    ribbon: demo.ribbon ?? '',
    brand: demo.brand ?? '',
    visible: !demo.hidden,
    sku: skuOf(demo.name),
    productOptions: options,
    manageVariants: options.length > 0,
    // Digital goods never run out; physical stock is counted.
    stock: demo.digital
      ? { trackInventory: false, inStock: true }
      : { trackInventory: true, quantity: quantity({}) },
    variants: demo.digital
      ? combos.map((choices) => ({
          choices,
          ...(variantPrice(choices) ? { price: variantPrice(choices) } : {}),
        }))
      : combos.map((choices) => ({
          choices,
          stock: { quantity: quantity(choices) },
          sku: `${skuOf(demo.name)}-${Object.values(choices).map(skuOf).join('-')}`,
          ...(variantPrice(choices) ? { price: variantPrice(choices) } : {}),
        })),
  };
}

function mediaInput(demo: DemoProduct): MediaInput[] {
  const media: MediaInput[] = [
    { mediaId: imageStem(demo.name) },
    { mediaId: imageStem(`${demo.name} detail`) },
  ];
  for (const option of demo.options ?? []) {
    if (!option.color) continue;
    for (const choice of option.choices) {
      const [description, color] = choice.split(':');
      media.push({
        mediaId: imageStem(demo.name, color),
        choice: { option: option.name, choice: description },
      });
    }
  }
  return media;
}

function combinations(options: Array<{ name: string; values: string[] }>): Array<Record<string, string>> {
  if (options.length === 0) return [];
  let result: Array<Record<string, string>> = [{}];
  for (const option of options) {
    result = result.flatMap((partial) =>
      option.values.map((value) => ({ ...partial, [option.name]: value })),
    );
  }
  return result;
}

function skuOf(text: string): string {
  return text
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean)
    .map((word) => (/^\d/.test(word) ? word : word.slice(0, 3)))
    .join('');
}

function hash(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** A UUID made from a name, so the demo store's ids are the same on every machine. */
function stableId(name: string): string {
  const hex = createHash('sha256').update(`cartwheel-demo:${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
