import { Field } from '@cartwheel/design';
import {
  useMerchantProductVariants,
  useSaveProductOptions,
  useUpdateProductVariants,
  type VariantChange,
} from '@cartwheel/react';
import { type Product, type ProductVariant, ValidationError } from '@cartwheel/sdk';
import { type FormEvent, useId, useState } from 'react';

const MONEY = /^\d{1,9}(\.\d{1,2})?$/;
const WHOLE = /^\d{1,7}$/;

interface OptionRow {
  name: string;
  choices: string;
}

/** "S, M, L" → ["S", "M", "L"]: blanks dropped, each choice once. */
function choicesOf(text: string): string[] {
  return [...new Set(text.split(',').map((choice) => choice.trim()))].filter(Boolean);
}

/**
 * A product's options (Size: S, M, L) typed as a name and its choices, comma separated. Saving them
 * makes one variant per combination of choices (the platform keeps what variants it can).
 */
export function ProductOptionsEditor({ product }: { product: Product }) {
  const save = useSaveProductOptions();
  const id = useId();
  const initial: OptionRow[] = (product.productOptions ?? []).map((option) => ({
    name: option.name ?? '',
    choices: (option.choices ?? []).map((choice) => choice.description ?? '').join(', '),
  }));
  const [rows, setRows] = useState<OptionRow[]>(initial.length > 0 ? initial : []);
  const [problem, setProblem] = useState<string>();
  const [saved, setSaved] = useState<string>();

  function change(index: number, part: Partial<OptionRow>) {
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...part } : row)));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(undefined);
    setSaved(undefined);
    const filled = rows.filter((row) => row.name.trim() !== '' || row.choices.trim() !== '');
    for (const row of filled) {
      if (row.name.trim() === '') return setProblem('Give every option a name, like “Size”.');
      if (choicesOf(row.choices).length === 0)
        return setProblem(`List the choices of ${row.name.trim()}, separated by commas.`);
    }
    const names = filled.map((row) => row.name.trim().toLowerCase());
    if (new Set(names).size !== names.length) return setProblem('Two options have the same name.');
    try {
      await save.mutateAsync({
        productId: product.id ?? '',
        options: filled.map((row) => ({
          name: row.name.trim(),
          optionType: 'drop_down',
          choices: choicesOf(row.choices).map((choice) => ({ value: choice, description: choice })),
        })),
      });
      setRows(filled);
      setSaved(filled.length === 0 ? 'The options were removed.' : 'The options were saved.');
    } catch (error) {
      setProblem(
        error instanceof ValidationError
          ? error.fieldViolations.map((violation) => violation.description).join(' ')
          : `They were not saved: ${(error as Error).message}. What you typed is still here.`,
      );
    }
  }

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Options</h2>
      <p className="muted">
        Choices a shopper picks, like Size: S, M, L. Each combination becomes a variant with its own price and
        stock.
      </p>
      <form onSubmit={submit} noValidate>
        {rows.map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          <div className="field-row" key={index} data-testid="option-row">
            <Field
              label={`Option ${index + 1} name`}
              value={row.name}
              onChange={(event) => change(index, { name: event.target.value })}
            />
            <Field
              label={`Option ${index + 1} choices`}
              value={row.choices}
              placeholder="S, M, L"
              onChange={(event) => change(index, { choices: event.target.value })}
            />
            <button
              className="button button--quiet"
              type="button"
              onClick={() => setRows((current) => current.filter((_, i) => i !== index))}
            >
              Remove option {index + 1}
            </button>
          </div>
        ))}
        {problem ? (
          <p className="form-alert" role="alert">
            {problem}
          </p>
        ) : null}
        {saved ? (
          <p className="notice" role="status">
            {saved}
          </p>
        ) : null}
        <div className="form-actions">
          <button
            className="button"
            type="button"
            onClick={() => setRows((current) => [...current, { name: '', choices: '' }])}
          >
            Add an option
          </button>
          <button className="button button--primary" type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save options'}
          </button>
        </div>
      </form>
    </section>
  );
}

interface Cells {
  price: string;
  quantity: string;
  sku: string;
  weight: string;
}

function cellsOf(variant: ProductVariant): Cells {
  return {
    price: variant.variant?.priceData?.price === undefined ? '' : String(variant.variant.priceData.price),
    quantity: variant.stock?.quantity == null ? '' : String(variant.stock.quantity),
    sku: variant.variant?.sku ?? '',
    weight: variant.variant?.weight == null ? '' : String(variant.variant.weight),
  };
}

function labelOf(variant: ProductVariant): string {
  const choices = Object.entries(variant.choices ?? {});
  return choices.length === 0 ? 'Default' : choices.map(([, choice]) => choice).join(' / ');
}

/**
 * Every variant of the product in a grid of inputs, edited like a spreadsheet: Tab moves across a row
 * and on to the next, Enter (or the button) saves the changed rows in one call.
 */
export function VariantGrid({ product }: { product: Product }) {
  const variants = useMerchantProductVariants(product.id);
  const update = useUpdateProductVariants();
  const [edits, setEdits] = useState<Record<string, Partial<Cells>>>({});
  const [problem, setProblem] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const tracked = Boolean(product.stock?.trackInventory);
  const id = useId();

  if (!product.productOptions || product.productOptions.length === 0) return null;
  if (variants.isError)
    return (
      <p className="form-alert" role="alert">
        The variants could not be read: {variants.error.message}
      </p>
    );
  if (variants.isPending) return <p className="muted">Loading the variants…</p>;
  const items = variants.data.items;

  function typedIn(variant: ProductVariant, cell: keyof Cells): string {
    return edits[variant.id ?? '']?.[cell] ?? cellsOf(variant)[cell];
  }

  function edit(variantId: string, cell: keyof Cells, value: string) {
    setSaved(undefined);
    setEdits((current) => ({ ...current, [variantId]: { ...current[variantId], [cell]: value } }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(undefined);
    setSaved(undefined);
    const changes: VariantChange[] = [];
    for (const variant of items) {
      const changed = edits[variant.id ?? ''];
      if (!changed) continue;
      const was = cellsOf(variant);
      const name = labelOf(variant);
      const change: VariantChange = { variantIds: [variant.id ?? ''] };
      if (changed.price !== undefined && changed.price.trim() !== was.price) {
        if (!MONEY.test(changed.price.trim())) return setProblem(`${name}: a price like 12 or 12.50.`);
        change.price = Number(changed.price.trim());
      }
      if (changed.weight !== undefined && changed.weight.trim() !== was.weight) {
        if (changed.weight.trim() !== '' && !MONEY.test(changed.weight.trim()))
          return setProblem(`${name}: a weight like 0.5.`);
        change.weight = changed.weight.trim() === '' ? null : Number(changed.weight.trim());
      }
      if (changed.sku !== undefined && changed.sku.trim() !== was.sku) change.sku = changed.sku.trim();
      if (tracked && changed.quantity !== undefined && changed.quantity.trim() !== was.quantity) {
        if (!WHOLE.test(changed.quantity.trim()))
          return setProblem(`${name}: stock is a whole number, 0 or more.`);
        change.stock = { quantity: Number(changed.quantity.trim()) };
      }
      if (Object.keys(change).length > 1) changes.push(change);
    }
    if (changes.length === 0) return setSaved('Nothing was changed.');
    try {
      await update.mutateAsync({ productId: product.id ?? '', variants: changes });
      setEdits({});
      setSaved(`${changes.length} variant${changes.length === 1 ? ' was' : 's were'} saved.`);
    } catch (error) {
      setProblem(
        error instanceof ValidationError
          ? error.fieldViolations.map((violation) => violation.description).join(' ')
          : `They were not saved: ${(error as Error).message}. What you typed is still here.`,
      );
    }
  }

  const cells: Array<[keyof Cells, string, string]> = [
    ['price', 'Price', 'decimal'],
    ...(tracked ? ([['quantity', 'Stock', 'numeric']] as Array<[keyof Cells, string, string]>) : []),
    ['sku', 'SKU', 'text'],
    ['weight', 'Weight', 'decimal'],
  ];
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Variants</h2>
      {tracked ? null : (
        <p className="muted">Stock per variant is counted once “Track the quantity in stock” is on.</p>
      )}
      <form onSubmit={submit} noValidate>
        <div className="table-wrap">
          <table className="table variant-grid" aria-label="Variants">
            <thead>
              <tr>
                <th scope="col">Variant</th>
                {cells.map(([cell, header]) => (
                  <th scope="col" key={cell}>
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {items.map((variant) => {
                const name = labelOf(variant);
                return (
                  <tr key={variant.id} data-testid="variant-row">
                    <th scope="row">{name}</th>
                    {cells.map(([cell, header, mode]) => (
                      <td key={cell}>
                        <Field
                          compact
                          hideLabel
                          label={`${header} of ${name}`}
                          inputMode={mode as 'decimal' | 'numeric' | 'text'}
                          value={typedIn(variant, cell)}
                          onChange={(event) => edit(variant.id ?? '', cell, event.target.value)}
                        />
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {problem ? (
          <p className="form-alert" role="alert">
            {problem}
          </p>
        ) : null}
        {saved ? (
          <p className="notice" role="status">
            {saved}
          </p>
        ) : null}
        <div className="form-actions">
          <button className="button button--primary" type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save variants'}
          </button>
        </div>
      </form>
    </section>
  );
}
