import { Field, SelectField, SubmitButton } from '@cartwheel/design';
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
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import {
  ChangeError,
  filledIn,
  Notice,
  PermissionChecks,
  placeViolations,
  RecordList,
  SettingForm,
  useEditing,
} from './common.tsx';

/** Staff and roles: roles built from permissions, staff invited by email, suspended, reinstated, removed. */
export function StaffPage() {
  const [notice, setNotice] = useState<string>();
  return (
    <>
      <h1>Staff and roles</h1>
      <Notice>{notice}</Notice>
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
      <RecordList
        title="Roles"
        query={roles}
        what="the roles"
        empty="No roles yet: create one below, then invite staff to it."
        nameHeader="Role"
        nameOf={(role) => role.name}
        columns={[{ header: 'Permissions', cell: (role) => role.permissions.join(', ') || 'none' }]}
        editing={editing}
        remove={{
          mutation: remove,
          variables: (role) => role.id,
          title: (role) => `Delete the role ${role.name}?`,
          description: 'A role someone still holds cannot be deleted.',
          confirm: 'Delete role',
          done: (role) => onDone(`The role ${role.name} was deleted.`),
        }}
      >
        {permissions.isError ? (
          <ErrorNotice what="the permissions" error={permissions.error} retry={() => permissions.refetch()} />
        ) : null}
      </RecordList>
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
          <Field
            label="Role name"
            announce
            error={errors.name?.message}
            {...register('name', { validate: filledIn('Give the role a name.') })}
          />
          <PermissionChecks
            permissions={permissions.data}
            registration={register('permissions')}
            error={errors.permissions?.message}
          />
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
  // a removal's own mutation: its refusal shows in its dialog, a suspension's above the list
  const removal = useStaffAction();
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
    <RecordList
      title="Staff"
      query={staff}
      what="the staff"
      empty="No staff yet: invite someone below."
      nameHeader="Email"
      nameOf={(member) => member.email}
      columns={[
        { header: 'Role', cell: (member) => (member.role === 'OWNER' ? 'Owner' : member.role.name) },
        { header: 'Status', cell: (member) => STATUS_LABELS[member.status] },
      ]}
      actions={(member) =>
        member.role === 'OWNER' ? null : member.status === 'SUSPENDED' ? (
          <button className="button" type="button" onClick={() => run(member, 'reinstate')}>
            Reinstate <span className="visually-hidden">{member.email}</span>
          </button>
        ) : (
          <button className="button" type="button" onClick={() => run(member, 'suspend')}>
            Suspend <span className="visually-hidden">{member.email}</span>
          </button>
        )
      }
      remove={{
        verb: 'Remove',
        mutation: removal,
        variables: (member) => ({ id: member.id, action: 'remove' as const }),
        title: (member) => `Remove ${member.email}?`,
        description: 'Their sign-ins end at once and they lose access to the back office.',
        confirm: 'Remove',
        done: (member) => onDone(`${member.email} was removed.`),
        offered: (member) => member.role !== 'OWNER',
      }}
    >
      {action.isError ? (
        <p className="form-alert" role="alert">
          That was refused: {action.error.message}
        </p>
      ) : null}
      <form onSubmit={submit} noValidate aria-labelledby="invite-title">
        <h3 id="invite-title">Invite staff</h3>
        <ChangeError error={invite.error} what="The invitation" />
        <div className="field-row">
          <Field
            label="Email"
            type="email"
            announce
            error={errors.email?.message}
            {...register('email', {
              validate: (value) => /^\S+@\S+$/.test(value.trim()) || 'An email like ana@example.com.',
            })}
          />
          <SelectField
            label="Role"
            announce
            error={errors.roleId?.message}
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
          </SelectField>
        </div>
        <SubmitButton pending={invite.isPending} pendingText="Sending…">
          Send invitation
        </SubmitButton>
      </form>
    </RecordList>
  );
}
