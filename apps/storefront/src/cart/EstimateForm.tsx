import { countryChoices, US_STATES } from '@cartwheel/sdk/wire';
import { type FormEvent, useId, useState } from 'react';
import type { EstimateAddress } from './estimate-address.ts';

/** The country an estimate starts with. */
const DEFAULT_COUNTRY = 'US';

/** Country, State and Postal code: the address shipping and tax are estimated for. */
export function EstimateForm({
  address,
  onEstimate,
}: {
  address: EstimateAddress | undefined;
  onEstimate: (address: EstimateAddress) => void;
}) {
  const id = useId();
  const [country, setCountry] = useState(address?.country ?? DEFAULT_COUNTRY);
  const [subdivision, setSubdivision] = useState(address?.subdivision ?? '');
  const [postalCode, setPostalCode] = useState(address?.postalCode ?? '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onEstimate({
      country,
      ...(subdivision.trim() ? { subdivision: subdivision.trim() } : {}),
      ...(postalCode.trim() ? { postalCode: postalCode.trim() } : {}),
    });
  };

  return (
    <form className="estimate" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Estimate shipping and tax</h3>
      <div className="field">
        <label htmlFor={`${id}-country`}>Country</label>
        <select
          id={`${id}-country`}
          autoComplete="country"
          value={country}
          onChange={(event) => {
            setCountry(event.target.value);
            setSubdivision('');
          }}
        >
          {countryChoices().map((choice) => (
            <option key={choice.code} value={choice.code}>
              {choice.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-state`}>State</label>
        {country === 'US' ? (
          <select
            id={`${id}-state`}
            autoComplete="address-level1"
            value={subdivision}
            onChange={(event) => setSubdivision(event.target.value)}
          >
            <option value="">Choose a state</option>
            {US_STATES.map((choice) => (
              <option key={choice.code} value={choice.code}>
                {choice.name}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={`${id}-state`}
            type="text"
            autoComplete="address-level1"
            value={subdivision}
            onChange={(event) => setSubdivision(event.target.value)}
          />
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-postal`}>Postal code</label>
        <input
          id={`${id}-postal`}
          type="text"
          autoComplete="postal-code"
          value={postalCode}
          onChange={(event) => setPostalCode(event.target.value)}
        />
      </div>
      <button type="submit" className="button button--secondary">
        Estimate
      </button>
    </form>
  );
}
