import { Field, SelectField } from '@cartwheel/design';
import { type Choice, countryChoices, US_STATES } from '@cartwheel/sdk/wire';
import type { AddressField, AddressForm, FieldErrors } from '../form.ts';

/** A select's options for `choices`, after an empty one saying `placeholder` when there is one. */
function options(choices: readonly Choice[], placeholder?: string) {
  return (
    <>
      {placeholder ? <option value="">{placeholder}</option> : null}
      {choices.map((choice) => (
        <option key={choice.code} value={choice.code}>
          {choice.name}
        </option>
      ))}
    </>
  );
}

/**
 * The fields of one address; the buyer's name goes with the delivery address only (a checkout keeps
 * one name). Text fields report on blur (the page then re-prices the checkout);
 * the selects on change.
 */
export function AddressFields({
  side,
  value,
  errors,
  onChange,
  onCommit,
}: {
  side: 'shipping' | 'billing';
  value: AddressForm;
  errors: FieldErrors;
  onChange: (next: AddressForm) => void;
  /** The shopper finished a field: `next` is the address to save. */
  onCommit: (next: AddressForm) => void;
}) {
  const autoPrefix = side === 'shipping' ? 'shipping' : 'billing';
  const error = (field: AddressField) => errors[`${side}.${field}`];
  const text = (field: AddressField, label: string, autoComplete: string) => (
    <Field
      label={label}
      name={`${side}.${field}`}
      autoComplete={`${autoPrefix} ${autoComplete}`}
      value={value[field]}
      error={error(field)}
      onChange={(event) => onChange({ ...value, [field]: event.target.value })}
      onBlur={() => onCommit(value)}
    />
  );
  const changeCountry = (country: string) => {
    // a US state means nothing elsewhere, and a typed region nothing in the US
    const next = { ...value, country, state: country === value.country ? value.state : '' };
    onChange(next);
    onCommit(next);
  };
  return (
    <div className="address">
      {side === 'shipping' ? (
        <div className="form__row">
          {text('firstName', 'First name', 'given-name')}
          {text('lastName', 'Last name', 'family-name')}
        </div>
      ) : null}
      {text('address', 'Address', 'address-line1')}
      <div className="form__row">
        {text('city', 'City', 'address-level2')}
        {text('postalCode', 'Postal code', 'postal-code')}
      </div>
      <div className="form__row">
        <SelectField
          label="Country"
          name={`${side}.country`}
          autoComplete={`${autoPrefix} country`}
          value={value.country}
          error={error('country')}
          onChange={(event) => changeCountry(event.target.value)}
        >
          {options(countryChoices())}
        </SelectField>
        {value.country === 'US' ? (
          <SelectField
            label="State"
            name={`${side}.state`}
            autoComplete={`${autoPrefix} address-level1`}
            value={value.state}
            error={error('state')}
            onChange={(event) => {
              const next = { ...value, state: event.target.value };
              onChange(next);
              onCommit(next);
            }}
          >
            {options(US_STATES, 'Choose a state')}
          </SelectField>
        ) : (
          text('state', 'State', 'address-level1')
        )}
      </div>
    </div>
  );
}
