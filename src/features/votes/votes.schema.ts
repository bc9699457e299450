// The votes' page forms (contract §23): the staff's (create, edit, delete) and the members' ballot.
import { Csrf, Field, IdPath, IntegerField, pageForm, Prose } from '../../core/web/form-atoms.js';

const hidden = { hide: true } as const;
const VoteForm = pageForm({
  question: Field(),
  options: Prose(),
  close_date: Field(),
  close_time: Field(),
  eligibility: Field(),
  _csrf: Csrf,
});
export const staffVotesPage = { ...hidden, querystring: pageForm({ done: Field() }) };
export const createVoteForm = { ...hidden, body: VoteForm };
export const staffVotePage = { ...hidden, params: IdPath() };
export const updateVoteForm = { ...hidden, params: IdPath(), body: VoteForm };
export const deleteVoteForm = { ...hidden, params: IdPath(), body: pageForm({ _csrf: Csrf }) };

export const votesPage = { ...hidden };
export const votePage = { ...hidden, params: IdPath(), querystring: pageForm({ done: Field() }) };
export const ballotForm = {
  ...hidden,
  params: IdPath(),
  body: pageForm({ option: IntegerField(1, 2_147_483_647, 'Choose one of the options.'), _csrf: Csrf }),
};
