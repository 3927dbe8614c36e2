export {
  CheckboxField,
  type CheckboxFieldProps,
  Field,
  FieldError,
  type FieldProps,
  FormAlert,
  SelectField,
  type SelectFieldProps,
  SubmitButton,
  TextAreaField,
  type TextAreaFieldProps,
} from './form.tsx';
