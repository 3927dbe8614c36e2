export { Field, FieldError, type FieldProps, FormAlert, SubmitButton } from './form.tsx';
