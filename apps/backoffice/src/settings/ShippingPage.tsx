import {
  useCreateShippingRegion,
  useDeleteShippingRegion,
  useShippingRegions,
  useUpdateShippingRegion,
} from '@cartwheel/react';
import type { StoreShippingOption, StoreShippingRegion } from '@cartwheel/sdk';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import {
  ConfirmedRowAction,
  EditRowButton,
  FieldError,
  placeViolations,
  SettingForm,
  useEditing,
} from './common.tsx';

interface OptionValues {
  title: string;
  price: string;
  deliveryTime: string;
  freeShippingAbove: string;
  /** The option as saved, when editing: its code and what this form does not edit (weight rates, slots). */
  saved?: StoreShippingOption | undefined;
}

interface RegionFormValues {
  name: string;
  /** Country codes, comma separated: `US, CA`. */
  countries: string;
  options: OptionValues[];
}

const NEW_OPTION: OptionValues = { title: '', price: '', deliveryTime: '', freeShippingAbove: '' };
const EMPTY: RegionFormValues = { name: '', countries: '', options: [NEW_OPTION] };
const AMOUNT = /^\d{1,12}(\.\d{1,6})?$/;

function rateText(option: StoreShippingOption): string {
  const rate = option.rate;
  const base =
    rate.kind === 'FLAT_RATE'
      ? `${rate.price ?? '0'} flat`
      : rate.pricePerWeightUnit
        ? `${rate.pricePerWeightUnit} per weight unit`
        : 'by weight brackets';
  return rate.freeShippingAbove ? `${base}, free from ${rate.freeShippingAbove}` : base;
}

const valuesOf = (region: StoreShippingRegion): RegionFormValues => ({
  name: region.name,
  countries: region.destinations.map((destination) => destination.country).join(', '),
  options: region.options.map((option) => ({
    title: option.title,
    price: option.rate.price ?? '',
    deliveryTime: option.deliveryTime ?? '',
    freeShippingAbove: option.rate.freeShippingAbove ?? '',
    saved: option,
  })),
});

/** Whether the form edits this option's price (flat rates); a weight-based one keeps its rate. */
const flat = (option: OptionValues) => !option.saved || option.saved.rate.kind === 'FLAT_RATE';

/** A code the platform accepts, from the option's title: `Express 2-day` is `express-2-day`. */
const codeOf = (title: string, index: number) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50) || `option-${index + 1}`;

/** Shipping regions (countries shipped to) and the delivery options offered in each. */
export function ShippingPage() {
  const regions = useShippingRegions();
  const create = useCreateShippingRegion();
  const update = useUpdateShippingRegion();
  const remove = useDeleteShippingRegion();
  const [notice, setNotice] = useState<string>();
  const { register, control, handleSubmit, formState, setError, reset } = useForm<RegionFormValues>({
    defaultValues: EMPTY,
  });
  const options = useFieldArray({ control, name: 'options' });
  const editing = useEditing<StoreShippingRegion, RegionFormValues>(reset, EMPTY, valuesOf);
  const errors = formState.errors;
  const submit = handleSubmit(async (values) => {
    setNotice(undefined);
    try {
      // an edited region keeps each country's subdivisions, each option's code, slots and weight rates
      const destinations = values.countries
        .split(',')
        .map((country) => country.trim().toUpperCase())
        .filter(Boolean)
        .map(
          (country) =>
            editing.record?.destinations.find((destination) => destination.country === country) ?? {
              country,
            },
        );
      const shippingRegion = {
        name: values.name.trim(),
        destinations,
        options: values.options.map(
          (option, index): StoreShippingOption => ({
            ...option.saved,
            code: option.saved?.code ?? codeOf(option.title, index),
            title: option.title.trim(),
            deliveryTime: option.deliveryTime.trim() || null,
            rate:
              option.saved && !flat(option)
                ? { ...option.saved.rate, freeShippingAbove: option.freeShippingAbove.trim() || null }
                : {
                    kind: 'FLAT_RATE',
                    price: option.price.trim(),
                    ...(option.freeShippingAbove.trim()
                      ? { freeShippingAbove: option.freeShippingAbove.trim() }
                      : {}),
                  },
          }),
        ),
      };
      const region = editing.id
        ? await update.mutateAsync({ id: editing.id, shippingRegion })
        : await create.mutateAsync(shippingRegion);
      setNotice(`Shipping to ${region.name} was ${editing.id ? 'saved' : 'added'}.`);
      editing.stop();
    } catch (error) {
      placeViolations(error, ['name', 'destinations', 'country', 'options'], (field, message) =>
        setError(field === 'name' ? 'name' : field === 'options' ? 'options' : 'countries', { message }),
      );
    }
  });
  return (
    <>
      <h1>Shipping</h1>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <section className="panel" aria-labelledby="regions-title">
        <h2 id="regions-title">Shipping regions</h2>
        {regions.isError ? (
          <ErrorNotice what="the shipping regions" error={regions.error} retry={() => regions.refetch()} />
        ) : null}
        {regions.data?.length === 0 ? (
          <p className="muted">
            No shipping regions yet: shoppers cannot check out physical goods until you add one.
          </p>
        ) : null}
        {regions.data?.length ? (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Shipping regions</caption>
              <thead>
                <tr>
                  <th scope="col">Region</th>
                  <th scope="col">Ships to</th>
                  <th scope="col">Options</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {regions.data.map((region) => (
                  <tr key={region.id}>
                    <th scope="row">{region.name}</th>
                    <td>
                      {region.destinations
                        .map((destination) =>
                          destination.subdivisions?.length
                            ? `${destination.country} (${destination.subdivisions.join(', ')})`
                            : destination.country,
                        )
                        .join(', ')}
                    </td>
                    <td>
                      <ul className="plain-list">
                        {region.options.map((option) => (
                          <li key={option.code}>
                            {option.title}: {rateText(option)}
                            {option.deliveryTime ? ` (${option.deliveryTime})` : ''}
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td>
                      <div className="row-actions">
                        <EditRowButton name={region.name} onEdit={() => editing.start(region)} />
                        <ConfirmedRowAction
                          verb="Delete"
                          name={region.name}
                          title={`Stop shipping to ${region.name}?`}
                          description="Shoppers there are no longer offered these options."
                          confirm="Delete shipping region"
                          mutation={remove}
                          variables={region.id}
                          onDone={() => {
                            if (editing.id === region.id) editing.stop();
                            setNotice(`Shipping to ${region.name} was deleted.`);
                          }}
                        />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      <SettingForm
        editing={editing.record?.name}
        addTitle="Add a shipping region"
        addLabel="Add shipping region"
        noun="shipping region"
        busy={create.isPending || update.isPending}
        error={editing.id ? update.error : create.error}
        onSubmit={submit}
        onCancel={editing.stop}
      >
        <div className="field-row">
          <div className="field">
            <label htmlFor="region-name">Region name</label>
            <input
              id="region-name"
              aria-invalid={Boolean(errors.name)}
              aria-describedby={errors.name ? 'region-name-error' : undefined}
              {...register('name', {
                validate: (value) => value.trim() !== '' || 'Name the region, like Europe.',
              })}
            />
            <FieldError id="region-name-error" message={errors.name?.message} />
          </div>
          <div className="field">
            <label htmlFor="region-countries">Countries</label>
            <input
              id="region-countries"
              aria-invalid={Boolean(errors.countries)}
              aria-describedby={errors.countries ? 'region-countries-error' : 'region-countries-hint'}
              {...register('countries', {
                validate: (value) =>
                  /^\s*[A-Za-z]{2}(\s*,\s*[A-Za-z]{2})*\s*$/.test(value) || 'Two-letter codes, like US, CA.',
              })}
            />
            <p className="muted hint" id="region-countries-hint">
              Two-letter codes, separated by commas.
            </p>
            <FieldError id="region-countries-error" message={errors.countries?.message} />
          </div>
        </div>
        {options.fields.map((field, index) => (
          <fieldset key={field.id}>
            <legend>Delivery option {index + 1}</legend>
            <div className="field-row">
              <div className="field">
                <label htmlFor={`option-${index}-title`}>Title</label>
                <input
                  id={`option-${index}-title`}
                  aria-invalid={Boolean(errors.options?.[index]?.title)}
                  {...register(`options.${index}.title`, {
                    validate: (value) => value.trim() !== '' || 'Name the option, like Standard.',
                  })}
                />
                <FieldError
                  id={`option-${index}-title-error`}
                  message={errors.options?.[index]?.title?.message}
                />
              </div>
              <div className="field">
                <label htmlFor={`option-${index}-price`}>Price</label>
                <input
                  id={`option-${index}-price`}
                  inputMode="decimal"
                  readOnly={!flat(field)}
                  placeholder={flat(field) ? undefined : 'By weight'}
                  aria-invalid={Boolean(errors.options?.[index]?.price)}
                  {...register(`options.${index}.price`, {
                    validate: (value, all) =>
                      !flat(all.options[index] ?? NEW_OPTION) ||
                      AMOUNT.test(value.trim()) ||
                      'A price like 5.99.',
                  })}
                />
                <FieldError
                  id={`option-${index}-price-error`}
                  message={errors.options?.[index]?.price?.message}
                />
              </div>
              <div className="field">
                <label htmlFor={`option-${index}-time`}>
                  Delivery time <span className="muted">(optional)</span>
                </label>
                <input id={`option-${index}-time`} {...register(`options.${index}.deliveryTime`)} />
              </div>
              <div className="field">
                <label htmlFor={`option-${index}-free`}>
                  Free from <span className="muted">(optional)</span>
                </label>
                <input
                  id={`option-${index}-free`}
                  inputMode="decimal"
                  aria-invalid={Boolean(errors.options?.[index]?.freeShippingAbove)}
                  {...register(`options.${index}.freeShippingAbove`, {
                    validate: (value) =>
                      value.trim() === '' || AMOUNT.test(value.trim()) || 'An amount like 75.',
                  })}
                />
                <FieldError
                  id={`option-${index}-free-error`}
                  message={errors.options?.[index]?.freeShippingAbove?.message}
                />
              </div>
            </div>
            {options.fields.length > 1 ? (
              <button className="button button--quiet" type="button" onClick={() => options.remove(index)}>
                Remove option {index + 1}
              </button>
            ) : null}
          </fieldset>
        ))}
        <FieldError
          id="region-options-error"
          message={errors.options?.message ?? errors.options?.root?.message}
        />
        <p>
          <button className="button" type="button" onClick={() => options.append(NEW_OPTION)}>
            Add another option
          </button>
        </p>
      </SettingForm>
    </>
  );
}
