import { CheckboxField, Field, FieldGroup, TextAreaField } from '@cartwheel/design';
import { useBrandsV3, useMerchantProduct, useRibbonsV3, useSaveProduct } from '@cartwheel/react';
import { type Product, ValidationError } from '@cartwheel/sdk';
import { useEffect, useId, useState } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { ProductCollections } from './ProductCollections.tsx';
import { ProductInfoSections } from './ProductInfoSections.tsx';
import { ProductMedia } from './ProductMedia.tsx';
import { ProductModifiers } from './ProductModifiers.tsx';
import { ProductPreorder } from './ProductPreorder.tsx';
import { ProductOptionsEditor, VariantGrid } from './ProductVariants.tsx';
import './catalog.css';

/** The form's fields: what a merchant types, as text where the platform wants numbers. */
export interface ProductForm {
  name: string;
  description: string;
  price: string;
  cost: string;
  sku: string;
  weight: string;
  ribbon: string;
  brand: string;
  visible: boolean;
  trackInventory: boolean;
  quantity: string;
}

const EMPTY: ProductForm = {
  name: '',
  description: '',
  price: '',
  cost: '',
  sku: '',
  weight: '',
  ribbon: '',
  brand: '',
  visible: true,
  trackInventory: false,
  quantity: '',
};

/** The same limits the platform checks (catalog/schemas.ts), so most mistakes are caught as typed. */
const MONEY = /^\d{1,9}(\.\d{1,2})?$/;
const NAME_MAX = 80;

function formOf(product: Product): ProductForm {
  return {
    name: product.name ?? '',
    description: product.description ?? '',
    price: String(product.priceData?.price ?? ''),
    cost: product.costAndProfitData?.itemCost === undefined ? '' : String(product.costAndProfitData.itemCost),
    sku: product.sku ?? '',
    // the wire says 0 for a product without a weight: shown as it was left, blank
    weight: product.weight ? String(product.weight) : '',
    ribbon: product.ribbon ?? '',
    brand: product.brand ?? '',
    visible: product.visible !== false,
    trackInventory: Boolean(product.stock?.trackInventory),
    quantity: product.stock?.quantity == null ? '' : String(product.stock.quantity),
  };
}

/** What the platform is sent: a new product whole, a changed one only in what the merchant changed. */
function productOf(form: ProductForm, dirty: Partial<Record<keyof ProductForm, unknown>>, isNew: boolean) {
  const changed = (field: keyof ProductForm) => isNew || Boolean(dirty[field]);
  // a cleared cost is sent as null (the platform forgets it); the SDK's type knows only numbers
  const product: Omit<Product, 'id' | 'costAndProfitData'> & {
    costAndProfitData?: { itemCost: number | null };
  } = {};
  if (isNew) product.productType = 'physical';
  if (changed('name')) product.name = form.name.trim();
  if (changed('description')) product.description = form.description;
  if (changed('price')) product.priceData = { price: Number(form.price) };
  if (changed('cost') && (form.cost !== '' || !isNew))
    product.costAndProfitData = { itemCost: form.cost === '' ? null : Number(form.cost) };
  if (changed('sku')) product.sku = form.sku.trim();
  if (changed('weight') && (form.weight !== '' || !isNew)) product.weight = Number(form.weight || 0);
  if (changed('ribbon')) product.ribbon = form.ribbon.trim();
  if (changed('brand')) product.brand = form.brand.trim();
  if (changed('visible')) product.visible = form.visible;
  if (changed('trackInventory') || changed('quantity')) {
    product.stock = form.trackInventory
      ? { trackInventory: true, quantity: Number(form.quantity || 0) }
      : { trackInventory: false, inStock: true };
  }
  return product as Omit<Product, 'id'>;
}

/** Profit and margin as the merchant types the price and cost, before anything is saved. */
function profitOf(price: string, cost: string): string | undefined {
  if (!MONEY.test(price) || !MONEY.test(cost)) return undefined;
  const profit = Number(price) - Number(cost);
  const margin = Number(price) > 0 ? Math.round((profit / Number(price)) * 1000) / 10 : 0;
  return `Profit ${profit.toFixed(2)} · margin ${margin}%`;
}

/** `/admin/products/new` and `/admin/products/:id`: a product's details, price, cost and stock. */
export function ProductEditorPage() {
  const { id } = useParams();
  const isNew = !id || id === 'new';
  const product = useMerchantProduct(isNew ? undefined : id);

  useEffect(() => {
    document.title = `${isNew ? 'New product' : (product.data?.name ?? 'Product')} · Cartwheel back office`;
  }, [isNew, product.data?.name]);

  if (!isNew && product.isError)
    return <ErrorNotice what="this product" error={product.error} retry={() => product.refetch()} />;
  if (!isNew && product.isPending) return <p role="status">Loading the product…</p>;
  return <ProductEditor key={id} product={isNew ? undefined : product.data} />;
}

function ProductEditor({ product }: { product: Product | undefined }) {
  const isNew = !product;
  const save = useSaveProduct();
  const brands = useBrandsV3();
  const ribbons = useRibbonsV3();
  const navigate = useNavigate();
  const [saved, setSaved] = useState<string>();
  const form = useForm<ProductForm>({ defaultValues: product ? formOf(product) : EMPTY, mode: 'onTouched' });
  const { register, handleSubmit, watch, formState, setError, reset } = form;
  const errors = formState.errors;
  const id = useId();
  const field = (name: keyof ProductForm | 'ribbons' | 'brands') => `${id}-${name}`;
  const profit = profitOf(watch('price'), watch('cost'));
  const trackInventory = watch('trackInventory');

  const submit = handleSubmit(async (values) => {
    setSaved(undefined);
    try {
      const result = await save.mutateAsync({
        id: product?.id,
        product: productOf(values, formState.dirtyFields, isNew),
      });
      if (isNew) {
        navigate(`/products/${encodeURIComponent(result.id ?? '')}`, {
          replace: true,
          state: { saved: `${result.name} was created.` },
        });
        return;
      }
      reset(formOf(result));
      setSaved(`${result.name} was saved.`);
    } catch (error) {
      // the platform's own checks, shown beside the fields they name; what was typed stays
      if (error instanceof ValidationError) {
        for (const violation of error.fieldViolations) {
          const name = fieldOf(violation.field);
          if (name) setError(name, { message: violation.description });
        }
      }
    }
  });

  const createdMessage = (history.state?.usr as { saved?: string } | undefined)?.saved;
  const message = saved ?? (formState.isDirty ? undefined : createdMessage);

  return (
    <>
      <p>
        <Link to="/products">← All products</Link>
      </p>
      <h1>{isNew ? 'New product' : product.name}</h1>
      {message ? (
        <p className="notice" role="status">
          {message}
        </p>
      ) : null}
      {save.isError && !(save.error instanceof ValidationError) ? (
        <p className="form-alert" role="alert">
          It was not saved: {save.error.message}. What you typed is still here; try again.
        </p>
      ) : null}
      <form className="product-form panel" onSubmit={submit} noValidate>
        <Field
          id={field('name')}
          label="Name"
          error={errors.name?.message}
          announce
          {...register('name', {
            validate: (value) => value.trim() !== '' || 'Give the product a name.',
            maxLength: { value: NAME_MAX, message: `At most ${NAME_MAX} characters.` },
          })}
        />
        <TextAreaField
          id={field('description')}
          label="Description"
          optional
          rows={4}
          {...register('description')}
        />
        <div className="field-row">
          <Field
            id={field('price')}
            label="Price"
            inputMode="decimal"
            error={errors.price?.message}
            announce
            {...register('price', {
              validate: (value) => MONEY.test(value.trim()) || 'A price like 12 or 12.50.',
            })}
          />
          <div>
            <Field
              id={field('cost')}
              label="Cost of goods"
              optional
              inputMode="decimal"
              error={errors.cost?.message}
              announce
              aria-describedby={`${field('cost')}-profit`}
              {...register('cost', {
                validate: (value) =>
                  value.trim() === '' || MONEY.test(value.trim()) || 'A cost like 4 or 4.20.',
              })}
            />
            <p className="muted hint" id={`${field('cost')}-profit`} data-testid="profit">
              {profit ?? 'Enter a cost to see profit and margin.'}
            </p>
          </div>
        </div>
        <div className="field-row">
          <Field id={field('sku')} label="SKU" optional {...register('sku')} />
          <Field
            id={field('weight')}
            label="Weight"
            optional
            inputMode="decimal"
            error={errors.weight?.message}
            announce
            {...register('weight', {
              validate: (value) => value.trim() === '' || MONEY.test(value.trim()) || 'A weight like 0.5.',
            })}
          />
        </div>
        <div className="field-row">
          <Field
            id={field('ribbon')}
            label="Ribbon"
            optional="optional, e.g. “New”"
            hint="Pick one of the store's ribbons, or type a new one."
            list={field('ribbons')}
            autoComplete="off"
            {...register('ribbon')}
          />
          <Field
            id={field('brand')}
            label="Brand"
            optional
            hint="Pick one of the store's brands, or type a new one."
            list={field('brands')}
            autoComplete="off"
            {...register('brand')}
          />
          <NameChoices id={field('ribbons')} names={ribbons.data?.map((ribbon) => ribbon.name)} />
          <NameChoices id={field('brands')} names={brands.data?.map((brand) => brand.name)} />
        </div>
        <FieldGroup legend="Inventory">
          <CheckboxField label="Track the quantity in stock" {...register('trackInventory')} />
          {trackInventory ? (
            <Field
              id={field('quantity')}
              label="Quantity in stock"
              inputMode="numeric"
              error={errors.quantity?.message}
              announce
              {...register('quantity', {
                validate: (value) => /^\d{1,7}$/.test(value.trim()) || 'A whole number, 0 or more.',
              })}
            />
          ) : null}
        </FieldGroup>
        <CheckboxField label="Visible in the storefront" {...register('visible')} />
        <div className="form-actions">
          <button className="button button--primary" type="submit" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Saving…' : isNew ? 'Create product' : 'Save changes'}
          </button>
        </div>
      </form>
      {product ? (
        <>
          <ProductOptionsEditor product={product} />
          <VariantGrid product={product} />
          <ProductMedia product={product} />
          <ProductModifiers product={product} />
          <ProductPreorder product={product} />
          <ProductInfoSections product={product} />
          <ProductCollections product={product} />
        </>
      ) : (
        <section className="panel" aria-labelledby={`${id}-later`}>
          <h2 id={`${id}-later`}>Options and variants</h2>
          <p className="muted" data-testid="after-creating">
            Options (a size, a colour), their variants, images and collections are added once the product
            exists: create it, and they appear here.
          </p>
        </section>
      )}
    </>
  );
}

/** The store's brands or ribbons a field offers as it is typed in (a new name makes a new one). */
function NameChoices({ id, names }: { id: string; names: Array<string | undefined> | undefined }) {
  return (
    <datalist id={id}>
      {(names ?? []).map((name) => (name ? <option key={name} value={name} /> : null))}
    </datalist>
  );
}

/** The form field a platform violation names (`product.priceData.price` is the price field). */
function fieldOf(path: string): FieldPath<ProductForm> | undefined {
  const last = path.replace(/^product\./, '');
  if (last.startsWith('priceData') || last.startsWith('price')) return 'price';
  if (last.startsWith('costAndProfitData')) return 'cost';
  if (last.startsWith('stock')) return 'quantity';
  const direct = ['name', 'description', 'sku', 'weight', 'ribbon', 'brand'] as const;
  return direct.find((name) => last === name);
}
