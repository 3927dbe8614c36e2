import { useCollections, useProducts } from '@cartwheel/react';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover, Text } from 'react-aria-components';
import './scope-picker.css';

/** At most this many matches are offered at once: the merchant types more of the name to narrow them. */
const MATCHES = 20;

export interface ScopePickerProps {
  /** `product`: the catalog's products (hidden ones too), found by name; `collection`: its collections. */
  kind: 'product' | 'collection';
  label: string;
  /** The chosen ids, in the order they were chosen. */
  value: readonly string[];
  onChange: (ids: string[]) => void;
  /** Ids of messages (the form's error) that describe the box. */
  describedBy?: string | undefined;
  invalid?: boolean | undefined;
}

interface Choice {
  id: string;
  name: string;
}

/**
 * A searchable combobox (React Aria's, so its keys, announcements and popover are the maintained
 * library's) that adds one product or collection at a time to a list of chosen ones, each with its
 * own Remove button. Products are searched on the platform (`name` contains what is typed) through
 * `@cartwheel/react`; the chosen ones' names are read back by id, so a rule opened for editing shows them.
 */
export default function ScopePicker({
  kind,
  label,
  value,
  onChange,
  describedBy,
  invalid,
}: ScopePickerProps) {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query.trim());
  const products = useProducts(
    {
      ...(deferred ? { filter: { name: { $contains: deferred } } } : {}),
      sort: [{ fieldName: 'name', order: 'ASC' }],
      paging: { limit: MATCHES },
    },
    { merchant: true, keepPrevious: true, enabled: kind === 'product' },
  );
  // the chosen products by id, for their names (those found by the search may not include them)
  const chosenProducts = useProducts(
    { filter: { id: { $in: [...value] } }, paging: { limit: 100 } },
    { merchant: true, keepPrevious: true, enabled: kind === 'product' && value.length > 0 },
  );
  // a store has few collections: all of them are read once and filtered here
  const collections = useCollections({ paging: { limit: 100 } });
  const [picked, setPicked] = useState<Record<string, string>>({});
  // each pick starts the box anew (closed, empty) and gives its input the focus back, ready for the next
  const [round, setRound] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (round > 0) input.current?.focus();
  }, [round]);

  const known = useMemo(() => {
    const names = new Map<string, string>();
    const lists =
      kind === 'product'
        ? [products.data?.items, chosenProducts.data?.items]
        : [collections.data?.items as Array<{ id?: string | null; name?: string | null }> | undefined];
    for (const list of lists)
      for (const item of list ?? []) if (item.id) names.set(item.id, item.name ?? item.id);
    for (const [id, name] of Object.entries(picked)) if (!names.has(id)) names.set(id, name);
    return names;
  }, [kind, products.data, chosenProducts.data, collections.data, picked]);

  const matches: Choice[] = useMemo(() => {
    const chosen = new Set(value);
    if (kind === 'product') {
      return (products.data?.items ?? [])
        .filter((item) => item.id && !chosen.has(item.id))
        .map((item) => ({ id: item.id as string, name: item.name ?? (item.id as string) }));
    }
    const needle = deferred.toLowerCase();
    return ((collections.data?.items ?? []) as Array<{ id?: string | null; name?: string | null }>)
      .filter((item) => item.id && !chosen.has(item.id))
      .filter((item) => !needle || (item.name ?? '').toLowerCase().includes(needle))
      .slice(0, MATCHES)
      .map((item) => ({ id: item.id as string, name: item.name ?? (item.id as string) }));
  }, [kind, products.data, collections.data, deferred, value]);

  const loading = kind === 'product' ? products.isFetching : collections.isPending;
  const failed = kind === 'product' ? products.isError : collections.isError;
  const noun = kind === 'product' ? 'products' : 'collections';

  return (
    <div className="scope-picker">
      <ComboBox
        key={round}
        // the kit's look by its class only: the kit's frame would label the input itself, where React Aria's Label and description slots wire the ids
        className="field"
        items={matches}
        inputValue={query}
        onInputChange={setQuery}
        selectedKey={null}
        onSelectionChange={(key) => {
          if (key === null) return;
          const id = String(key);
          const choice = matches.find((match) => match.id === id);
          if (choice) setPicked((was) => ({ ...was, [id]: choice.name }));
          if (!value.includes(id)) onChange([...value, id]);
          setQuery('');
          setRound((was) => was + 1);
        }}
        menuTrigger="input"
        // what is offered is read again as it opens: a product or collection made since shows
        onOpenChange={(isOpen) => {
          if (!isOpen) return;
          if (kind === 'product') products.refetch();
          else collections.refetch();
        }}
        allowsEmptyCollection
        isInvalid={Boolean(invalid)}
        aria-describedby={describedBy}
      >
        <Label>{label}</Label>
        <Text slot="description" className="field__hint">
          Type part of a name, then choose with the arrow keys and Enter.
        </Text>
        <div className="scope-picker__control">
          <Input ref={input} className="scope-picker__input" placeholder={`Search ${noun}`} />
          <Button className="scope-picker__toggle" aria-label={`Show ${noun}`}>
            <span aria-hidden="true">▾</span>
          </Button>
        </div>
        <Popover className="scope-picker__popover" placement="bottom start">
          <ListBox<Choice>
            className="scope-picker__list"
            renderEmptyState={() => (
              <p className="scope-picker__empty">
                {failed
                  ? `The ${noun} could not be read; try again.`
                  : loading
                    ? `Searching the ${noun}…`
                    : `No ${noun} match “${query.trim()}”.`}
              </p>
            )}
          >
            {(item) => (
              <ListBoxItem className="scope-picker__option" id={item.id} textValue={item.name}>
                {item.name}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
      {value.length > 0 ? (
        <ul className="scope-picker__chosen" aria-label={`Chosen ${noun}`}>
          {value.map((id) => {
            const name = known.get(id) ?? id;
            return (
              <li key={id}>
                <span>{name}</span>
                <button
                  type="button"
                  className="scope-picker__remove"
                  aria-label={`Remove ${name}`}
                  onClick={() => onChange(value.filter((other) => other !== id))}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted scope-picker__none">No {noun} chosen.</p>
      )}
    </div>
  );
}
