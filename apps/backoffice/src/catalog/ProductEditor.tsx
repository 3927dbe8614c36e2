import { FieldError } from '@cartwheel/design';
import { useMerchantProduct, useSaveProduct } from '@cartwheel/react';
import { type Product, ValidationError } from '@cartwheel/sdk';
import { useEffect, useId, useState } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { ProductCollections } from './ProductCollections.tsx';
import { ProductMedia } from './ProductMedia.tsx';
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
    weight: product.weight === undefined ? '' : String(product.weight),
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
  if (changed('weight') && form.weight !== '') product.weight = Number(form.weight);
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
  const navigate = useNavigate();
  const [saved, setSaved] = useState<string>();
  const form = useForm<ProductForm>({ defaultValues: product ? formOf(product) : EMPTY, mode: 'onTouched' });
  const { register, handleSubmit, watch, formState, setError, reset } = form;
  const errors = formState.errors;
  const id = useId();
  const field = (name: keyof ProductForm) => `${id}-${name}`;
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
        <div className="field">
          <label htmlFor={field('name')}>Name</label>
          <input
            id={field('name')}
            aria-invalid={Boolean(errors.name)}
            aria-describedby={errors.name ? `${field('name')}-error` : undefined}
            {...register('name', {
              validate: (value) => value.trim() !== '' || 'Give the product a name.',
              maxLength: { value: NAME_MAX, message: `At most ${NAME_MAX} characters.` },
            })}
          />
          <FieldError id={`${field('name')}-error`} message={errors.name?.message} />
        </div>
        <div className="field">
          <label htmlFor={field('description')}>
            Description <span className="muted">(optional)</span>
          </label>
          <textarea id={field('description')} rows={4} {...register('description')} />
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor={field('price')}>Price</label>
            <input
              id={field('price')}
              inputMode="decimal"
              aria-invalid={Boolean(errors.price)}
              aria-describedby={errors.price ? `${field('price')}-error` : undefined}
              {...register('price', {
                validate: (value) => MONEY.test(value.trim()) || 'A price like 12 or 12.50.',
              })}
            />
            <FieldError id={`${field('price')}-error`} message={errors.price?.message} />
          </div>
          <div className="field">
            <label htmlFor={field('cost')}>
              Cost of goods <span className="muted">(optional)</span>
            </label>
            <input
              id={field('cost')}
              inputMode="decimal"
              aria-invalid={Boolean(errors.cost)}
              aria-describedby={`${field('cost')}-profit`}
              {...register('cost', {
                validate: (value) =>
                  value.trim() === '' || MONEY.test(value.trim()) || 'A cost like 4 or 4.20.',
              })}
            />
            <FieldError id={`${field('cost')}-error`} message={errors.cost?.message} />
            <p className="muted hint" id={`${field('cost')}-profit`} data-testid="profit">
              {profit ?? 'Enter a cost to see profit and margin.'}
            </p>
          </div>
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor={field('sku')}>
              SKU <span className="muted">(optional)</span>
            </label>
            <input id={field('sku')} {...register('sku')} />
          </div>
          <div className="field">
            <label htmlFor={field('weight')}>
              Weight <span className="muted">(optional)</span>
            </label>
            <input
              id={field('weight')}
              inputMode="decimal"
              aria-invalid={Boolean(errors.weight)}
              {...register('weight', {
                validate: (value) => value.trim() === '' || MONEY.test(value.trim()) || 'A weight like 0.5.',
              })}
            />
            <FieldError id={`${field('weight')}-error`} message={errors.weight?.message} />
          </div>
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor={field('ribbon')}>
              Ribbon <span className="muted">(optional, e.g. “New”)</span>
            </label>
            <input id={field('ribbon')} {...register('ribbon')} />
          </div>
          <div className="field">
            <label htmlFor={field('brand')}>
              Brand <span className="muted">(optional)</span>
            </label>
            <input id={field('brand')} {...register('brand')} />
          </div>
        </div>
        <fieldset className="field">
          <legend>Inventory</legend>
          <label className="check">
            <input type="checkbox" {...register('trackInventory')} /> Track the quantity in stock
          </label>
          {trackInventory ? (
            <div className="field">
              <label htmlFor={field('quantity')}>Quantity in stock</label>
              <input
                id={field('quantity')}
                inputMode="numeric"
                aria-invalid={Boolean(errors.quantity)}
                {...register('quantity', {
                  validate: (value) => /^\d{1,7}$/.test(value.trim()) || 'A whole number, 0 or more.',
                })}
              />
              <FieldError id={`${field('quantity')}-error`} message={errors.quantity?.message} />
            </div>
          ) : null}
        </fieldset>
        <label className="check">
          <input type="checkbox" {...register('visible')} /> Visible in the storefront
        </label>
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
          <ProductCollections product={product} />
        </>
      ) : null}
    </>
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
