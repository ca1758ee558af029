import { Outlet } from 'react-router';
import { FormColumn } from '../../components/layout/form-column';

/**
 * The pages the company's apps send their users to (decision 053): the login layout's form column
 * alone, since the members' brand panel speaks of plans an app user does not have.
 */
export default function AppUsersLayout() {
  return (
    <FormColumn alone>
      <Outlet />
    </FormColumn>
  );
}
