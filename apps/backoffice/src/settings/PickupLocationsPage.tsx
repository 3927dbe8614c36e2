import { Field, SelectField, TextAreaField } from '@cartwheel/design';
import { useDeletePickupLocation, usePickupLocations, useSavePickupLocation } from '@cartwheel/react';
import type { StorePickupLocation } from '@cartwheel/sdk';
import { CountryField, filledIn, placeViolations, SettingListPage, useSettingList } from './common.tsx';

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
  const { notice, setNotice, form, editing, errors } = useSettingList<StorePickupLocation, PickupFormValues>(
    EMPTY,
    valuesOf,
  );
  const { register, handleSubmit, setError } = form;
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
    <SettingListPage
      heading="Pickup locations"
      notice={notice}
      title="Pickup locations"
      query={locations}
      what="the pickup locations"
      empty="No pickup locations: buyers can only have orders shipped. Add one below."
      nameHeader="Location"
      nameOf={(location) => location.title}
      columns={[
        { header: 'Address', cell: (location) => addressOf(location) || '—' },
        {
          header: 'Kind',
          cell: (location) => (location.pickupMethod === 'STORE_PICKUP' ? 'Store pickup' : 'Pickup point'),
        },
        { header: 'Price', cell: (location) => location.price },
      ]}
      editing={editing}
      remove={{
        mutation: remove,
        title: (location) => `Stop offering pickup at ${location.title}?`,
        description: 'Checkouts no longer offer it; orders already placed keep it.',
        confirm: 'Delete pickup location',
        done: (location) => setNotice(`The pickup location ${location.title} was deleted.`),
      }}
      form={{
        addTitle: 'Add a pickup location',
        addLabel: 'Add pickup location',
        noun: 'pickup location',
        busy: save.isPending,
        error: save.error,
        onSubmit: submit,
      }}
    >
      <div className="field-row">
        <Field
          label="Name"
          announce
          error={errors.title?.message}
          {...register('title', {
            validate: filledIn('Name the place, like Main Street shop.'),
          })}
        />
        <SelectField label="Kind" {...register('pickupMethod')}>
          <option value="STORE_PICKUP">Store pickup</option>
          <option value="PICKUP_POINT">Pickup point</option>
        </SelectField>
        <Field
          label="Price"
          inputMode="decimal"
          announce
          error={errors.price?.message}
          {...register('price', {
            validate: (value) => /^\d{1,12}(\.\d{1,6})?$/.test(value.trim()) || 'An amount like 0.00.',
          })}
        />
      </div>
      <div className="field-row">
        <Field
          label="Street address"
          autoComplete="off"
          announce
          error={errors.addressLine?.message}
          {...register('addressLine', {
            validate: filledIn('Where buyers come to collect.'),
          })}
        />
        <Field label="City" autoComplete="off" announce error={errors.city?.message} {...register('city')} />
        <Field
          label="Postal code"
          autoComplete="off"
          announce
          error={errors.postalCode?.message}
          {...register('postalCode')}
        />
        <CountryField register={register} error={errors.country?.message} />
      </div>
      <TextAreaField
        label="Instructions for buyers"
        optional
        rows={2}
        announce
        error={errors.instructions?.message}
        {...register('instructions')}
      />
    </SettingListPage>
  );
}
