import { SelectField } from '@cartwheel/design';

/** A list's filter by one status, in a filter bar: "Any" first, then each status by its label. */
export function StatusFilter({
  label,
  labels,
  value,
  onChoose,
}: {
  label: string;
  /** Each status the list knows, by the words shown for it. */
  labels: Partial<Record<string, string>>;
  value: string;
  onChoose(status: string): void;
}) {
  return (
    <SelectField compact label={label} value={value} onChange={(event) => onChoose(event.target.value)}>
      <option value="">Any</option>
      {Object.entries(labels).map(([status, words]) => (
        <option key={status} value={status}>
          {words}
        </option>
      ))}
    </SelectField>
  );
}
