import {
  useCreateRole,
  useDeleteRole,
  useInviteStaff,
  usePermissions,
  useStaff,
  useStaffAction,
  useStaffRoles,
  useUpdateRole,
} from '@cartwheel/react';
import type { StaffMember, StaffPermission, StaffRole } from '@cartwheel/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import {
  ChangeError,
  ConfirmedRowAction,
  EditRowButton,
  FieldError,
  placeViolations,
  SettingForm,
  useEditing,
} from './common.tsx';

/** Staff and roles: roles built from permissions, staff invited by email, suspended, reinstated, removed. */
export function StaffPage() {
  const [notice, setNotice] = useState<string>();
  return (
    <>
      <h1>Staff and roles</h1>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <Roles onDone={setNotice} />
      <Staff onDone={setNotice} />
    </>
  );
}

interface RoleFormValues {
  name: string;
  permissions: StaffPermission[];
}

const EMPTY_ROLE: RoleFormValues = { name: '', permissions: [] };
const roleValues = (role: StaffRole): RoleFormValues => ({ name: role.name, permissions: role.permissions });

function Roles({ onDone }: { onDone(message: string): void }) {
  const roles = useStaffRoles();
  const permissions = usePermissions();
  const create = useCreateRole();
  const update = useUpdateRole();
  const remove = useDeleteRole();
  const { register, handleSubmit, formState, setError, reset } = useForm<RoleFormValues>({
    defaultValues: EMPTY_ROLE,
  });
  const editing = useEditing<StaffRole, RoleFormValues>(reset, EMPTY_ROLE, roleValues);
  const submit = handleSubmit(async (values) => {
    try {
      const role = editing.id
        ? await update.mutateAsync({ id: editing.id, role: values })
        : await create.mutateAsync(values);
      onDone(`The role ${role.name} was ${editing.id ? 'saved' : 'created'}.`);
      editing.stop();
    } catch (error) {
      placeViolations(error, ['name', 'permissions'], (field, message) =>
        setError(field as keyof RoleFormValues, { message }),
      );
    }
  });
  const errors = formState.errors;
  return (
    <>
      <section className="panel" aria-labelledby="roles-title">
        <h2 id="roles-title">Roles</h2>
        {roles.isError ? (
          <ErrorNotice what="the roles" error={roles.error} retry={() => roles.refetch()} />
        ) : null}
        {roles.data?.length === 0 ? (
          <p className="muted">No roles yet: create one below, then invite staff to it.</p>
        ) : null}
        {roles.data?.length ? (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Roles</caption>
              <thead>
                <tr>
                  <th scope="col">Role</th>
                  <th scope="col">Permissions</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {roles.data.map((role) => (
                  <tr key={role.id}>
                    <th scope="row">{role.name}</th>
                    <td>{role.permissions.join(', ') || 'none'}</td>
                    <td>
                      <div className="row-actions">
                        <EditRowButton name={role.name} onEdit={() => editing.start(role)} />
                        <ConfirmedRowAction
                          verb="Delete"
                          name={role.name}
                          title={`Delete the role ${role.name}?`}
                          description="A role someone still holds cannot be deleted."
                          confirm="Delete role"
                          mutation={remove}
                          variables={role.id}
                          onDone={() => {
                            if (editing.id === role.id) editing.stop();
                            onDone(`The role ${role.name} was deleted.`);
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
        {permissions.isError ? (
          <ErrorNotice what="the permissions" error={permissions.error} retry={() => permissions.refetch()} />
        ) : null}
      </section>
      {permissions.data ? (
        <SettingForm
          editing={editing.record?.name}
          addTitle="New role"
          addLabel="Create role"
          noun="role"
          busy={create.isPending || update.isPending}
          error={editing.id ? update.error : create.error}
          onSubmit={submit}
          onCancel={editing.stop}
        >
          <div className="field">
            <label htmlFor="role-name">Role name</label>
            <input
              id="role-name"
              aria-invalid={Boolean(errors.name)}
              aria-describedby={errors.name ? 'role-name-error' : undefined}
              {...register('name', { validate: (value) => value.trim() !== '' || 'Give the role a name.' })}
            />
            <FieldError id="role-name-error" message={errors.name?.message} />
          </div>
          <fieldset>
            <legend>
              Permissions <span className="muted">(optional)</span>
            </legend>
            <div className="permission-grid">
              {permissions.data.map((permission) => (
                <label className="check" key={permission}>
                  <input type="checkbox" value={permission} {...register('permissions')} /> {permission}
                </label>
              ))}
            </div>
            <FieldError id="role-permissions-error" message={errors.permissions?.message} />
          </fieldset>
        </SettingForm>
      ) : null}
    </>
  );
}

interface InviteValues {
  email: string;
  roleId: string;
}

const STATUS_LABELS: Record<StaffMember['status'], string> = {
  INVITED: 'Invited',
  ACTIVE: 'Active',
  SUSPENDED: 'Suspended',
};

function Staff({ onDone }: { onDone(message: string): void }) {
  const staff = useStaff();
  const roles = useStaffRoles();
  const invite = useInviteStaff();
  const action = useStaffAction();
  const [removing, setRemoving] = useState<string>();
  const { register, handleSubmit, formState, setError, reset } = useForm<InviteValues>({
    defaultValues: { email: '', roleId: '' },
  });
  const errors = formState.errors;
  const submit = handleSubmit(async (values) => {
    try {
      const member = await invite.mutateAsync(values);
      reset();
      onDone(`An invitation was sent to ${member.email}.`);
    } catch (error) {
      placeViolations(error, ['email', 'roleId'], (field, message) =>
        setError(field as keyof InviteValues, { message }),
      );
    }
  });
  const run = (member: StaffMember, kind: 'suspend' | 'reinstate') =>
    action.mutate(
      { id: member.id, action: kind },
      { onSuccess: () => onDone(`${member.email} was ${kind === 'suspend' ? 'suspended' : 'reinstated'}.`) },
    );
  return (
    <section className="panel" aria-labelledby="staff-title">
      <h2 id="staff-title">Staff</h2>
      {staff.isError ? (
        <ErrorNotice what="the staff" error={staff.error} retry={() => staff.refetch()} />
      ) : null}
      {action.isError && !removing ? (
        <p className="alert" role="alert">
          That was refused: {action.error.message}
        </p>
      ) : null}
      {staff.data ? (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Staff</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {staff.data.map((member) => (
                <tr key={member.id}>
                  <th scope="row">{member.email}</th>
                  <td>{member.role === 'OWNER' ? 'Owner' : member.role.name}</td>
                  <td>{STATUS_LABELS[member.status]}</td>
                  <td>
                    {member.role === 'OWNER' ? null : (
                      <div className="row-actions">
                        {member.status === 'SUSPENDED' ? (
                          <button className="button" type="button" onClick={() => run(member, 'reinstate')}>
                            Reinstate <span className="visually-hidden">{member.email}</span>
                          </button>
                        ) : (
                          <button className="button" type="button" onClick={() => run(member, 'suspend')}>
                            Suspend <span className="visually-hidden">{member.email}</span>
                          </button>
                        )}
                        <ConfirmDialog
                          trigger={
                            <button className="button button--quiet" type="button">
                              Remove <span className="visually-hidden">{member.email}</span>
                            </button>
                          }
                          title={`Remove ${member.email}?`}
                          description="Their sign-ins end at once and they lose access to the back office."
                          confirm="Remove"
                          busy={action.isPending}
                          error={removing === member.id && action.error ? action.error.message : undefined}
                          open={removing === member.id}
                          onOpenChange={(open) => {
                            action.reset();
                            setRemoving(open ? member.id : undefined);
                          }}
                          onConfirm={() =>
                            action.mutate(
                              { id: member.id, action: 'remove' },
                              {
                                onSuccess: () => {
                                  setRemoving(undefined);
                                  onDone(`${member.email} was removed.`);
                                },
                              },
                            )
                          }
                        />
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <form onSubmit={submit} noValidate aria-labelledby="invite-title">
        <h3 id="invite-title">Invite staff</h3>
        <ChangeError error={invite.error} what="The invitation" />
        <div className="field-row">
          <div className="field">
            <label htmlFor="invite-email">Email</label>
            <input
              id="invite-email"
              type="email"
              aria-invalid={Boolean(errors.email)}
              aria-describedby={errors.email ? 'invite-email-error' : undefined}
              {...register('email', {
                validate: (value) => /^\S+@\S+$/.test(value.trim()) || 'An email like ana@example.com.',
              })}
            />
            <FieldError id="invite-email-error" message={errors.email?.message} />
          </div>
          <div className="field">
            <label htmlFor="invite-role">Role</label>
            <select
              id="invite-role"
              aria-invalid={Boolean(errors.roleId)}
              aria-describedby={errors.roleId ? 'invite-role-error' : undefined}
              {...register('roleId', {
                validate: (value) => value !== '' || 'Choose a role (create one above first).',
              })}
            >
              <option value="">Choose a role</option>
              {roles.data?.map((role) => (
                <option key={role.id} value={role.id}>
                  {role.name}
                </option>
              ))}
            </select>
            <FieldError id="invite-role-error" message={errors.roleId?.message} />
          </div>
        </div>
        <button className="button button--primary" type="submit" disabled={invite.isPending}>
          {invite.isPending ? 'Sending…' : 'Send invitation'}
        </button>
      </form>
    </section>
  );
}
