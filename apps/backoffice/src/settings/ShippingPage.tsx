import { Field, FieldGroup } from '@cartwheel/design';
import {
  useCreateShippingRegion,
  useDeleteShippingRegion,
  useShippingRegions,
  useUpdateShippingRegion,
} from '@cartwheel/react';
import type { StoreShippingOption, StoreShippingRegion } from '@cartwheel/sdk';
import { useFieldArray } from 'react-hook-form';
import { FieldError, filledIn, placeViolations, SettingListPage, useSettingList } from './common.tsx';

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

const destinationsOf = (region: StoreShippingRegion) =>
  region.destinations
    .map((destination) =>
      destination.subdivisions?.length
        ? `${destination.country} (${destination.subdivisions.join(', ')})`
        : destination.country,
    )
    .join(', ');

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
  const { notice, setNotice, form, editing, errors } = useSettingList<StoreShippingRegion, RegionFormValues>(
    EMPTY,
    valuesOf,
  );
  const { register, control, handleSubmit, setError } = form;
  const options = useFieldArray({ control, name: 'options' });
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
    <SettingListPage
      heading="Shipping"
      notice={notice}
      title="Shipping regions"
      query={regions}
      what="the shipping regions"
      empty="No shipping regions yet: shoppers cannot check out physical goods until you add one."
      nameHeader="Region"
      nameOf={(region) => region.name}
      columns={[
        { header: 'Ships to', cell: destinationsOf },
        {
          header: 'Options',
          cell: (region) => (
            <ul className="plain-list">
              {region.options.map((option) => (
                <li key={option.code}>
                  {option.title}: {rateText(option)}
                  {option.deliveryTime ? ` (${option.deliveryTime})` : ''}
                </li>
              ))}
            </ul>
          ),
        },
      ]}
      editing={editing}
      remove={{
        mutation: remove,
        title: (region) => `Stop shipping to ${region.name}?`,
        description: 'Shoppers there are no longer offered these options.',
        confirm: 'Delete shipping region',
        done: (region) => setNotice(`Shipping to ${region.name} was deleted.`),
      }}
      form={{
        addTitle: 'Add a shipping region',
        addLabel: 'Add shipping region',
        noun: 'shipping region',
        busy: create.isPending || update.isPending,
        error: editing.id ? update.error : create.error,
        onSubmit: submit,
      }}
    >
      <div className="field-row">
        <Field
          label="Region name"
          announce
          error={errors.name?.message}
          {...register('name', {
            validate: filledIn('Name the region, like Europe.'),
          })}
        />
        <Field
          label="Countries"
          hint="Two-letter codes, separated by commas."
          announce
          error={errors.countries?.message}
          {...register('countries', {
            validate: (value) =>
              /^\s*[A-Za-z]{2}(\s*,\s*[A-Za-z]{2})*\s*$/.test(value) || 'Two-letter codes, like US, CA.',
          })}
        />
      </div>
      {options.fields.map((field, index) => (
        <FieldGroup bordered key={field.id} legend={`Delivery option ${index + 1}`}>
          <div className="field-row">
            <Field
              label="Title"
              announce
              error={errors.options?.[index]?.title?.message}
              {...register(`options.${index}.title`, {
                validate: filledIn('Name the option, like Standard.'),
              })}
            />
            <Field
              label="Price"
              inputMode="decimal"
              readOnly={!flat(field)}
              placeholder={flat(field) ? undefined : 'By weight'}
              announce
              error={errors.options?.[index]?.price?.message}
              {...register(`options.${index}.price`, {
                validate: (value, all) =>
                  !flat(all.options[index] ?? NEW_OPTION) ||
                  AMOUNT.test(value.trim()) ||
                  'A price like 5.99.',
              })}
            />
            <Field label="Delivery time" optional {...register(`options.${index}.deliveryTime`)} />
            <Field
              label="Free from"
              optional
              inputMode="decimal"
              announce
              error={errors.options?.[index]?.freeShippingAbove?.message}
              {...register(`options.${index}.freeShippingAbove`, {
                validate: (value) => value.trim() === '' || AMOUNT.test(value.trim()) || 'An amount like 75.',
              })}
            />
          </div>
          {options.fields.length > 1 ? (
            <button className="button button--quiet" type="button" onClick={() => options.remove(index)}>
              Remove option {index + 1}
            </button>
          ) : null}
        </FieldGroup>
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
    </SettingListPage>
  );
}
