export {
  CheckboxField,
  type CheckboxFieldProps,
  Field,
  FieldError,
  FieldGroup,
  type FieldGroupProps,
  type FieldProps,
  FormAlert,
  type RadioChoice,
  RadioGroupField,
  type RadioGroupFieldProps,
  SelectField,
  type SelectFieldProps,
  SubmitButton,
  TextAreaField,
  type TextAreaFieldProps,
} from './form.tsx';
export { QrCode } from './qr-code.tsx';
