import { useDeletePickupLocation, usePickupLocations, useSavePickupLocation } from '@cartwheel/react';
import type { StorePickupLocation } from '@cartwheel/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import {
  ConfirmedRowAction,
  countryCode,
  EditRowButton,
  FieldError,
  placeViolations,
  SettingForm,
  useEditing,
} from './common.tsx';

interface PickupFormValues {
  title: string;
  pickupMethod: StorePickupLocation['pickupMethod'];
  addressLine: string;
  city: string;
  postalCode: string;
  country: string;
  price: string;
  instructions: string;
}

const EMPTY: PickupFormValues = {
  title: '',
  pickupMethod: 'STORE_PICKUP',
  addressLine: '',
  city: '',
  postalCode: '',
  country: '',
  price: '0.00',
  instructions: '',
};

const valuesOf = (location: StorePickupLocation): PickupFormValues => ({
  title: location.title,
  pickupMethod: location.pickupMethod,
  addressLine: location.address.addressLine ?? '',
  city: location.address.city ?? '',
  postalCode: location.address.postalCode ?? '',
  country: location.address.country ?? '',
  price: location.price,
  instructions: location.instructions ?? '',
});

/** A code the checkout's delivery options carry, from the title: "Main Street shop" is `main-street-shop`. */
const codeOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'pickup';

const addressOf = (location: StorePickupLocation) =>
  [location.address.addressLine, location.address.city, location.address.postalCode, location.address.country]
    .filter(Boolean)
    .join(', ');

/** Pickup locations: where a buyer may collect an order, offered at checkout beside the shipments. */
export function PickupLocationsPage() {
  const locations = usePickupLocations();
  const save = useSavePickupLocation();
  const remove = useDeletePickupLocation();
  const [notice, setNotice] = useState<string>();
  const { register, handleSubmit, formState, setError, reset } = useForm<PickupFormValues>({
    defaultValues: EMPTY,
  });
  const editing = useEditing<StorePickupLocation, PickupFormValues>(reset, EMPTY, valuesOf);
  const errors = formState.errors;
  const submit = handleSubmit(async (values) => {
    setNotice(undefined);
    try {
      const location = await save.mutateAsync({
        id: editing.id,
        pickupLocation: {
          // the code stays what it was: orders placed with this location name it
          code: editing.record?.code ?? codeOf(values.title),
          title: values.title.trim(),
          pickupMethod: values.pickupMethod,
          address: {
            addressLine: values.addressLine.trim() || null,
            city: values.city.trim() || null,
            postalCode: values.postalCode.trim() || null,
            country: values.country.trim().toUpperCase() || null,
          },
          price: values.price.trim() || '0.00',
          instructions: values.instructions.trim() || null,
        },
      });
      setNotice(`The pickup location ${location.title} was ${editing.id ? 'saved' : 'added'}.`);
      editing.stop();
    } catch (error) {
      placeViolations(
        error,
        ['title', 'code', 'addressLine', 'city', 'postalCode', 'country', 'price', 'instructions'],
        (field, message) =>
          setError(field === 'code' ? 'title' : (field as keyof PickupFormValues), { message }),
      );
    }
  });
  return (
    <>
      <h1>Pickup locations</h1>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <section className="panel" aria-labelledby="pickup-title">
        <h2 id="pickup-title">Pickup locations</h2>
        {locations.isError ? (
          <ErrorNotice
            what="the pickup locations"
            error={locations.error}
            retry={() => locations.refetch()}
          />
        ) : null}
        {locations.isPending ? <p role="status">Loading the pickup locations…</p> : null}
        {locations.data?.length === 0 ? (
          <p className="muted">No pickup locations: buyers can only have orders shipped. Add one below.</p>
        ) : null}
        {locations.data?.length ? (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Pickup locations</caption>
              <thead>
                <tr>
                  <th scope="col">Location</th>
                  <th scope="col">Address</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Price</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {locations.data.map((location) => (
                  <tr key={location.id}>
                    <th scope="row">{location.title}</th>
                    <td>{addressOf(location) || '—'}</td>
                    <td>{location.pickupMethod === 'STORE_PICKUP' ? 'Store pickup' : 'Pickup point'}</td>
                    <td>{location.price}</td>
                    <td>
                      <div className="row-actions">
                        <EditRowButton name={location.title} onEdit={() => editing.start(location)} />
                        <ConfirmedRowAction
                          verb="Delete"
                          name={location.title}
                          title={`Stop offering pickup at ${location.title}?`}
                          description="Checkouts no longer offer it; orders already placed keep it."
                          confirm="Delete pickup location"
                          mutation={remove}
                          variables={location.id}
                          onDone={() => {
                            if (editing.id === location.id) editing.stop();
                            setNotice(`The pickup location ${location.title} was deleted.`);
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
        editing={editing.record?.title}
        addTitle="Add a pickup location"
        addLabel="Add pickup location"
        noun="pickup location"
        busy={save.isPending}
        error={save.error}
        onSubmit={submit}
        onCancel={editing.stop}
      >
        <div className="field-row">
          <div className="field">
            <label htmlFor="pickup-title-input">Name</label>
            <input
              id="pickup-title-input"
              aria-invalid={Boolean(errors.title)}
              aria-describedby={errors.title ? 'pickup-title-error' : undefined}
              {...register('title', {
                validate: (value) => value.trim() !== '' || 'Name the place, like Main Street shop.',
              })}
            />
            <FieldError id="pickup-title-error" message={errors.title?.message} />
          </div>
          <div className="field">
            <label htmlFor="pickup-method">Kind</label>
            <select id="pickup-method" {...register('pickupMethod')}>
              <option value="STORE_PICKUP">Store pickup</option>
              <option value="PICKUP_POINT">Pickup point</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="pickup-price">Price</label>
            <input
              id="pickup-price"
              inputMode="decimal"
              aria-invalid={Boolean(errors.price)}
              aria-describedby={errors.price ? 'pickup-price-error' : undefined}
              {...register('price', {
                validate: (value) => /^\d{1,12}(\.\d{1,6})?$/.test(value.trim()) || 'An amount like 0.00.',
              })}
            />
            <FieldError id="pickup-price-error" message={errors.price?.message} />
          </div>
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor="pickup-address">Street address</label>
            <input
              id="pickup-address"
              autoComplete="off"
              aria-invalid={Boolean(errors.addressLine)}
              aria-describedby={errors.addressLine ? 'pickup-address-error' : undefined}
              {...register('addressLine', {
                validate: (value) => value.trim() !== '' || 'Where buyers come to collect.',
              })}
            />
            <FieldError id="pickup-address-error" message={errors.addressLine?.message} />
          </div>
          <div className="field">
            <label htmlFor="pickup-city">City</label>
            <input id="pickup-city" autoComplete="off" {...register('city')} />
            <FieldError id="pickup-city-error" message={errors.city?.message} />
          </div>
          <div className="field">
            <label htmlFor="pickup-postal">Postal code</label>
            <input id="pickup-postal" autoComplete="off" {...register('postalCode')} />
            <FieldError id="pickup-postal-error" message={errors.postalCode?.message} />
          </div>
          <div className="field">
            <label htmlFor="pickup-country">Country code</label>
            <input
              id="pickup-country"
              maxLength={2}
              aria-invalid={Boolean(errors.country)}
              aria-describedby={errors.country ? 'pickup-country-error' : undefined}
              {...register('country', { validate: countryCode })}
            />
            <FieldError id="pickup-country-error" message={errors.country?.message} />
          </div>
        </div>
        <div className="field">
          <label htmlFor="pickup-instructions">
            Instructions for buyers <span className="muted">(optional)</span>
          </label>
          <textarea id="pickup-instructions" rows={2} {...register('instructions')} />
        </div>
      </SettingForm>
    </>
  );
}
