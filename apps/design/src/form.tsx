import {
  type ChangeEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

/**
 * Cartwheel's one form kit (its look is form.css, part of base.css), for the storefront, the hosted pages and the back office. The pieces take
 * plain props, so a page keeps its state in React state or in React Hook Form (`{...register('email')}`
 * spreads onto a `Field`, whose `ref` reaches the input) and gets the same labels and error wiring.
 * `Field` draws a text input; `SelectField`, `TextAreaField` and `CheckboxField` the other controls,
 * with the same label, hint and error; `FieldGroup` puts fields under one legend, and `RadioGroupField`
 * draws a group of radios.
 */

/** What every field of the kit says around its control. */
interface FieldWording {
  label: ReactNode;
  /** A line under the label saying what to type; tied to the control with aria-describedby. */
  hint?: string | undefined;
  /** This field's own message: shown under it, tied to it with aria-describedby. */
  error?: string | undefined;
  /**
   * Announces the error as it appears (role="alert"), for a form with no alert of its own saying that
   * fields were marked; without it the error is read when the field takes the focus.
   */
  announce?: boolean | undefined;
  /** Marks the field as the one a problem shown elsewhere (above the form) is about. */
  invalid?: boolean | undefined;
  /** Says "(optional)" after the label: it may be left empty; a text says more ("optional, e.g. “New”"). */
  optional?: boolean | string | undefined;
  /** Draws the field small with its label beside the control, for a filter bar or a table's cell. */
  compact?: boolean | undefined;
  /** Keeps the label for screen readers only, where the place already shows what the field is (a table's column). */
  hideLabel?: boolean | undefined;
}

export interface FieldProps extends FieldWording, InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement> | undefined;
}

export interface SelectFieldProps extends FieldWording, SelectHTMLAttributes<HTMLSelectElement> {
  ref?: Ref<HTMLSelectElement> | undefined;
  /** The `<option>`s. */
  children: ReactNode;
}

export interface TextAreaFieldProps extends FieldWording, TextareaHTMLAttributes<HTMLTextAreaElement> {
  ref?: Ref<HTMLTextAreaElement> | undefined;
}

export interface CheckboxFieldProps
  extends Omit<FieldWording, 'optional'>,
    Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  ref?: Ref<HTMLInputElement> | undefined;
}

export interface FieldGroupProps extends Omit<FieldWording, 'label' | 'invalid' | 'compact' | 'hideLabel'> {
  /** What the group is, said before each of its controls (the fieldset's legend). */
  legend: ReactNode;
  /** The group's fields, checkboxes or radios. */
  children: ReactNode;
  className?: string | undefined;
  /** Draws a box around the group, for a group that must stand apart from the fields around it. */
  bordered?: boolean | undefined;
}

/** One choice of a `RadioGroupField`: its value and the words beside its radio. */
export interface RadioChoice<V extends string> {
  value: V;
  label: ReactNode;
}

export interface RadioGroupFieldProps<V extends string>
  extends Omit<FieldGroupProps, 'children'>,
    Omit<
      InputHTMLAttributes<HTMLInputElement>,
      'type' | 'value' | 'defaultValue' | 'checked' | 'defaultChecked' | 'className' | 'children'
    > {
  /** A callback ref (React Hook Form's `register`) reaches every radio. */
  ref?: Ref<HTMLInputElement> | undefined;
  /** The choices, in order, a radio each. */
  options: ReadonlyArray<RadioChoice<V>>;
  /** The chosen value, for a page that keeps it in its own state (with `onChoose`); unset under `register`. */
  value?: V | undefined;
  onChoose?: ((value: V) => void) | undefined;
}

interface ControlAria {
  id?: string | undefined;
  'aria-describedby'?: string | undefined;
  'aria-invalid'?: InputHTMLAttributes<HTMLInputElement>['aria-invalid'];
}

/**
 * Splits a field's props into its wording (for the frame) and its control's own props, which take the
 * id, the description (hint, error, any the page names) and the invalid mark.
 */
function useField<P extends FieldWording & ControlAria>(props: P) {
  const { label, hint, error, announce, invalid, optional, compact, hideLabel, ...own } = props;
  const wording: FieldWording = { label, hint, error, announce, invalid, optional, compact, hideLabel };
  const generated = useId();
  const id = own.id ?? generated;
  const describedBy =
    [own['aria-describedby'], hint ? `${id}-hint` : '', error ? `${id}-error` : '']
      .filter(Boolean)
      .join(' ') || undefined;
  const marked = Boolean(error || invalid);
  return {
    frame: { id, marked, wording },
    control: {
      ...own,
      id,
      'aria-invalid': marked || own['aria-invalid'] || undefined,
      'aria-describedby': describedBy,
    },
  };
}

/**
 * A field's frame: the label (for a checkbox, the label holding the control; for a group, the
 * fieldset's legend), hint, control, error.
 */
function FieldFrame({
  kind,
  id,
  marked,
  wording,
  describedBy,
  className: own,
  children,
}: {
  kind?: 'select' | 'textarea' | 'check' | 'group';
  id: string;
  marked: boolean;
  wording: FieldWording;
  /** A group's hint and error, which describe the fieldset. */
  describedBy?: string | undefined;
  className?: string | undefined;
  children: ReactNode;
}) {
  const className = [
    'field',
    kind && kind !== 'group' ? `field--${kind}` : '',
    wording.compact ? 'field--compact' : '',
    marked ? 'field--invalid' : '',
    own ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  const optional = wording.optional ? (
    <span className="field__optional">{` (${wording.optional === true ? 'optional' : wording.optional})`}</span>
  ) : null;
  const hidden = wording.hideLabel ? 'visually-hidden' : undefined;
  const parts = (
    <>
      {wording.hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {wording.hint}
        </p>
      ) : null}
      {kind === 'check' ? null : children}
      {wording.error ? (
        // by default not an alert: a form marks many fields at once and says so in one alert of its own
        <p className="field__error" id={`${id}-error`} role={wording.announce ? 'alert' : undefined}>
          {wording.error}
        </p>
      ) : null}
    </>
  );
  if (kind === 'group')
    return (
      <fieldset className={className} aria-describedby={describedBy}>
        <legend>
          {wording.label}
          {optional}
        </legend>
        {parts}
      </fieldset>
    );
  return (
    <div className={className}>
      {kind === 'check' ? (
        <label htmlFor={id}>
          {children} <span className={hidden}>{wording.label}</span>
        </label>
      ) : (
        <label htmlFor={id} className={hidden}>
          {wording.label}
          {optional}
        </label>
      )}
      {parts}
    </div>
  );
}

/**
 * One control of the kit in its frame: `draw` gets the control's own props, with the id, the description
 * and the invalid mark added. Every field below is this with its own control.
 */
function Framed<P extends FieldWording & ControlAria>({
  kind,
  props,
  draw,
}: {
  kind?: 'select' | 'textarea' | 'check';
  props: P;
  draw(control: ReturnType<typeof useField<P>>['control']): ReactNode;
}) {
  const { frame, control } = useField(props);
  return (
    <FieldFrame kind={kind} {...frame}>
      {draw(control)}
    </FieldFrame>
  );
}

/** A labelled input with its hint and its error; `id` is generated unless the page names it. */
export function Field(props: FieldProps) {
  return <Framed props={props} draw={(control) => <input {...control} />} />;
}

/** A labelled select (its options are the children), with the same hint and error as a `Field`. */
export function SelectField(props: SelectFieldProps) {
  return <Framed kind="select" props={props} draw={(control) => <select {...control} />} />;
}

/** A labelled multi-line text, with the same hint and error as a `Field`. */
export function TextAreaField(props: TextAreaFieldProps) {
  return <Framed kind="textarea" props={props} draw={(control) => <textarea {...control} />} />;
}

/** A checkbox with its label after it (the label holds the box), and the same hint and error. */
export function CheckboxField(props: CheckboxFieldProps) {
  return <Framed kind="check" props={props} draw={(control) => <input {...control} type="checkbox" />} />;
}

/**
 * A choice of one among a few, a radio each under the group's legend, with the group's hint and error.
 * Its other props (`name`, `onChange`, `disabled`, React Hook Form's `register`) go to every radio.
 */
export function RadioGroupField<V extends string>({
  legend,
  hint,
  error,
  announce,
  optional,
  className,
  bordered,
  options,
  value,
  onChoose,
  ...radio
}: RadioGroupFieldProps<V>) {
  return (
    <FieldGroup {...{ legend, hint, error, announce, optional, className, bordered }}>
      {options.map((option) => (
        <Framed
          key={option.value}
          kind="check"
          props={{
            label: option.label,
            ...radio,
            value: option.value,
            checked: value === undefined ? undefined : value === option.value,
            onChange: (event: ChangeEvent<HTMLInputElement>) => {
              radio.onChange?.(event);
              onChoose?.(option.value);
            },
          }}
          draw={(control) => <input {...control} type="radio" />}
        />
      ))}
    </FieldGroup>
  );
}

/**
 * Fields, checkboxes or radios under one legend (a fieldset, which draws no box unless `bordered`), with
 * the group's own hint and error, which describe the fieldset.
 */
export function FieldGroup({ legend, className, bordered, children, ...wording }: FieldGroupProps) {
  const { frame, control } = useField({ label: legend, ...wording });
  return (
    <FieldFrame
      kind="group"
      {...frame}
      describedBy={control['aria-describedby']}
      className={[bordered ? 'field--bordered' : '', className ?? ''].filter(Boolean).join(' ') || undefined}
    >
      {children}
    </FieldFrame>
  );
}

/**
 * A field's error under it, announced when it appears; `id` is what the control's aria-describedby
 * names. For controls a `Field` does not draw (checkbox groups, a React Hook Form field array).
 */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="field__error" id={id} role="alert">
      {message}
    </p>
  );
}

/** What went wrong with a form as a whole, announced as soon as it appears; nothing without a problem. */
export function FormAlert({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <div className="form-alert" role="alert">
      {children}
    </div>
  );
}

/**
 * The form's submit button: disabled while the form's work is pending (a double click sends once),
 * saying so in words and to screen readers (aria-busy).
 */
export function SubmitButton({
  pending,
  pendingText,
  children,
  className = 'button button--primary',
}: {
  pending: boolean;
  pendingText: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <button className={className} type="submit" disabled={pending} aria-busy={pending}>
      {pending ? pendingText : children}
    </button>
  );
}
