"""Long sentences as small stories: the entry point of the story generator (corpus 4.0).

``sample_spec(rng, bucket)`` draws one sentence spec for a length bucket: a single clause
(``helpers.corpus.sampler``) for the short buckets, a story that follows a discourse plan
(``helpers.corpus.stories_plans.PLANS``) for the long ones. The layers below import one way only:
``story_parts`` (places, activities, ``Story``) <- ``stories_steps`` <- ``stories_people`` /
``stories_plans`` <- this module.
"""

from __future__ import annotations

from helpers.corpus.sampler import sample_clause
from helpers.corpus.stories_plans import PLANS
from helpers.corpus.stories_steps import continue_story, day_not_night
from helpers.corpus.story_parts import Story


def sample_story(rng, size, rich=True):
    """A story of about ``size`` clauses (2-10) from a discourse plan drawn at random (a plan made for
    fewer clauses goes on in a second sentence, ``stories_steps.continue_story``)."""
    fits = [p for p, (lo, _hi, _fn) in PLANS.items() if lo <= size]
    name = rng.choice(fits)
    _lo, hi, plan = PLANS[name]
    st = Story(rng, rich, name)
    spec = plan(st, min(size, hi))
    if hi < size:  # a short plan runs on in a new sentence: 。 下午 她 去 了 ...
        spec = continue_story(st, size)
    if st.n() > 5:
        day_not_night(st)
    return spec


# the length buckets and the mix that fills each one: probability of a story, and its clause counts
MIX = {(3, 10): (0.03, (2,)), (11, 20): (0.4, (2, 2, 3)), (21, 30): (1.0, (3, 4, 5)),
       (31, 40): (1.0, (5, 6, 7)), (41, 60): (1.0, (8, 9, 10))}


def sample_spec(rng, bucket=(3, 10)):
    """One sentence spec for a length bucket: single clauses for short ones, stories for long ones."""
    p_story, sizes = MIX[bucket]
    if rng.random() < p_story:
        return sample_story(rng, rng.choice(sizes), rich=bucket[0] > 20 or rng.random() < 0.5)
    return sample_clause(rng, rich=bucket[0] > 10 and rng.random() < 0.5)
