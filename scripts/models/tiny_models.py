#!/usr/bin/env python3
"""Writes the tiny ONNX test models under test/fixtures/models/ (deterministic; no network).

    /usr/bin/python3 scripts/models/tiny_models.py [out_dir]

Needs the `onnx` and `numpy` Python packages (Debian: apt-get install python3-onnx python3-numpy).
Three folders, laid out like models exported from the Hugging Face hub:

  tiny-encoder/        a BERT-shaped sentence encoder: input_ids, attention_mask, token_type_ids
                       -> last_hidden_state [batch, seq, 32]; 1_Pooling declares mean pooling
  tiny-encoder-cls/    the same graph and weights, with 1_Pooling declaring CLS pooling
  tiny-cross-encoder/  a BERT-shaped sequence classifier over [CLS] a [SEP] b [SEP] -> logits
                       [batch, 1]; the logit grows by 1.5 with every content token of segment A
                       that also occurs in segment B

The weights are random but seeded, and every JSON file is written in the layout prettier keeps
(objects expanded, short scalar arrays inline), so a rerun reproduces the committed files byte for
byte and `prettier --check` accepts them.
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HIDDEN = 32
MAX_POSITIONS = 64
OPSET = 13
SEED = 20240611

SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']
PAD_ID, UNK_ID, CLS_ID, SEP_ID, MASK_ID = range(5)

# Common English words (the vocabulary's whole words), then single characters so that any ASCII
# word still splits into known pieces instead of [UNK].
WORDS = """
the of and to a in is it you that he was for on are with as i his they be at one have this from
or had by hot word but what some we can out other were all there when up use your how said an
each she which do their time if will way about many then them write would like so these her long
make thing see him two has look more day could go come did number sound no most people my over
know water than call first who may down side been now find any new work part take get place made
live where after back little only round man year came show every good me give our under name very
through just form sentence great think say help low line differ turn cause much mean before move
right boy old too same tell does set three want air well also play small end put home read hand
port large spell add even land here must big high such follow act why ask men change went light
kind off need house picture try us again animal point mother world near build self earth father
head stand own page should country found answer school grow study still learn plant cover food sun
four between state keep eye never last let thought city tree cross farm hard start might story saw
far sea draw left late run while press close night real life few north book carry took science eat
room friend began idea fish mountain stop once base hear horse cut sure watch color face wood main
open seem together next white children begin got walk example ease paper group always music those
both mark often letter until mile river car feet care second enough plain girl usual young ready
above ever red list though feel talk bird soon body dog family direct pose leave song measure door
product black short numeral class wind question happen complete ship area half rock order fire
south problem piece told knew pass since top whole king space heard best hour better true during
hundred five remember step early hold west ground interest reach fast verb sing listen six table
travel less morning ten simple several vowel toward war lay against pattern slow center love person
money serve appear road map rain rule govern pull cold notice voice unit power town fine certain
fly fall lead cry dark machine note wait plan figure star box noun field rest correct able pound
done beauty drive stood contain front teach week final gave green oh quick develop ocean warm free
minute strong special mind behind clear tail produce fact street inch multiply nothing course stay
wheel full force blue object decide surface deep moon island foot system busy test record boat
common gold possible plane stead dry wonder laugh thousand ago ran check game shape equate miss
brought heat snow tire bring yes distant fill east paint language among cat mat sat dogs cats
""".split()
CHARS = list('abcdefghijklmnopqrstuvwxyz0123456789') + list('.,?!\'"-:;()/&')


def vocabulary():
    """Token list in id order: specials, whole words (deduplicated), characters, ## pieces."""
    tokens = list(SPECIAL)
    seen = set(tokens)
    for token in WORDS + CHARS + ['##' + c for c in CHARS if c.isalnum()]:
        if token not in seen:
            seen.add(token)
            tokens.append(token)
    return tokens


# --- JSON in prettier's layout -----------------------------------------------------------------


def to_json(value, indent=0):
    """JSON with non-empty objects expanded and scalar arrays inline, as prettier leaves it."""
    pad = '  ' * indent
    inner = '  ' * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return '{}'
        items = [f'{inner}{json.dumps(k)}: {to_json(v, indent + 1)}' for k, v in value.items()]
        return '{\n' + ',\n'.join(items) + '\n' + pad + '}'
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            text = '[' + ', '.join(json.dumps(v) for v in value) + ']'
            if len(text) > 60:
                raise ValueError(f'array too long to stay inline under prettier: {text[:40]}...')
            return text
        items = [inner + to_json(v, indent + 1) for v in value]
        return '[\n' + ',\n'.join(items) + '\n' + pad + ']'
    return json.dumps(value)


def write_json(path, value):
    with open(path, 'w', encoding='utf-8', newline='\n') as out:
        out.write(to_json(value) + '\n')


# --- tokenizer files ---------------------------------------------------------------------------


def special_token(token, type_id):
    return {'SpecialToken': {'id': token, 'type_id': type_id}}


def sequence(which, type_id):
    return {'Sequence': {'id': which, 'type_id': type_id}}


def tokenizer_json(tokens):
    """A Hugging Face `tokenizers` WordPiece tokenizer, as BERT's uncased tokenizer.json."""
    added = [
        {
            'id': i,
            'content': token,
            'single_word': False,
            'lstrip': False,
            'rstrip': False,
            'normalized': False,
            'special': True,
        }
        for i, token in enumerate(SPECIAL)
    ]
    specials = {t: {'id': t, 'ids': [SPECIAL.index(t)], 'tokens': [t]} for t in ['[CLS]', '[SEP]']}
    return {
        'version': '1.0',
        'truncation': None,
        'padding': None,
        'added_tokens': added,
        'normalizer': {
            'type': 'BertNormalizer',
            'clean_text': True,
            'handle_chinese_chars': True,
            'strip_accents': None,
            'lowercase': True,
        },
        'pre_tokenizer': {'type': 'BertPreTokenizer'},
        'post_processor': {
            'type': 'TemplateProcessing',
            'single': [special_token('[CLS]', 0), sequence('A', 0), special_token('[SEP]', 0)],
            'pair': [
                special_token('[CLS]', 0),
                sequence('A', 0),
                special_token('[SEP]', 0),
                sequence('B', 1),
                special_token('[SEP]', 1),
            ],
            'special_tokens': specials,
        },
        'decoder': {'type': 'WordPiece', 'prefix': '##', 'cleanup': True},
        'model': {
            'type': 'WordPiece',
            'unk_token': '[UNK]',
            'continuing_subword_prefix': '##',
            'max_input_chars_per_word': 100,
            'vocab': {token: i for i, token in enumerate(tokens)},
        },
    }


def tokenizer_config():
    return {
        'tokenizer_class': 'BertTokenizer',
        'do_lower_case': True,
        'model_max_length': MAX_POSITIONS,
        'clean_up_tokenization_spaces': True,
        'cls_token': '[CLS]',
        'sep_token': '[SEP]',
        'pad_token': '[PAD]',
        'unk_token': '[UNK]',
        'mask_token': '[MASK]',
    }


def bert_config(vocab_size, architecture, extra=None):
    config = {
        'architectures': [architecture],
        'model_type': 'bert',
        'hidden_size': HIDDEN,
        'num_hidden_layers': 1,
        'num_attention_heads': 1,
        'intermediate_size': HIDDEN,
        'hidden_act': 'tanh',
        'max_position_embeddings': MAX_POSITIONS,
        'type_vocab_size': 2,
        'vocab_size': vocab_size,
        'pad_token_id': PAD_ID,
    }
    config.update(extra or {})
    return config


def pooling_config(mode):
    return {
        'word_embedding_dimension': HIDDEN,
        'pooling_mode_cls_token': mode == 'cls',
        'pooling_mode_mean_tokens': mode == 'mean',
        'pooling_mode_max_tokens': False,
        'pooling_mode_mean_sqrt_len_tokens': False,
    }


# --- graphs ------------------------------------------------------------------------------------


def bert_inputs():
    dims = ['batch', 'sequence']
    return [
        helper.make_tensor_value_info(name, TensorProto.INT64, dims)
        for name in ['input_ids', 'attention_mask', 'token_type_ids']
    ]


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def encoder_graph(vocab_size, rng):
    """Embeddings (word + position + type) -> tanh dense -> plus a masked-mean context -> tanh.

    The context term makes every output row depend on the whole (unpadded) sentence, so the CLS row
    differs from text to text; padding never changes a real token's output.
    """
    def normal(shape, scale):
        return (scale * rng.standard_normal(shape)).astype(np.float32)

    square = (HIDDEN, HIDDEN)
    weights = [
        const('word_embeddings', normal((vocab_size, HIDDEN), 1.0)),
        const('position_embeddings', normal((MAX_POSITIONS, HIDDEN), 0.5)),
        const('type_embeddings', normal((2, HIDDEN), 0.5)),
        const('dense_w', normal(square, 1 / np.sqrt(HIDDEN))),
        const('dense_b', normal(HIDDEN, 0.1)),
        const('context_w', normal(square, 1 / np.sqrt(HIDDEN))),
        const('zero', np.array(0, dtype=np.int64)),
        const('one', np.array(1, dtype=np.int64)),
        const('axis_1', np.array([1], dtype=np.int64)),
        const('axis_2', np.array([2], dtype=np.int64)),
    ]
    nodes = [
        helper.make_node('Gather', ['word_embeddings', 'input_ids'], ['words']),
        helper.make_node('Shape', ['input_ids'], ['ids_shape']),
        helper.make_node('Gather', ['ids_shape', 'one'], ['seq_len']),
        helper.make_node('Range', ['zero', 'seq_len', 'one'], ['positions']),
        helper.make_node('Gather', ['position_embeddings', 'positions'], ['position_vectors']),
        helper.make_node('Gather', ['type_embeddings', 'token_type_ids'], ['type_vectors']),
        helper.make_node('Add', ['words', 'position_vectors'], ['with_positions']),
        helper.make_node('Add', ['with_positions', 'type_vectors'], ['embedded']),
        helper.make_node('MatMul', ['embedded', 'dense_w'], ['dense']),
        helper.make_node('Add', ['dense', 'dense_b'], ['dense_biased']),
        helper.make_node('Tanh', ['dense_biased'], ['hidden']),
        helper.make_node('Cast', ['attention_mask'], ['mask_float'], to=TensorProto.FLOAT),
        helper.make_node('Unsqueeze', ['mask_float', 'axis_2'], ['mask_3d']),
        helper.make_node('Mul', ['hidden', 'mask_3d'], ['masked']),
        helper.make_node('ReduceSum', ['masked', 'axis_1'], ['masked_sum'], keepdims=1),
        helper.make_node('ReduceSum', ['mask_3d', 'axis_1'], ['token_count'], keepdims=1),
        helper.make_node('Div', ['masked_sum', 'token_count'], ['context']),
        helper.make_node('MatMul', ['context', 'context_w'], ['context_dense']),
        helper.make_node('Add', ['hidden', 'context_dense'], ['mixed']),
        helper.make_node('Tanh', ['mixed'], ['last_hidden_state']),
    ]
    output = helper.make_tensor_value_info(
        'last_hidden_state', TensorProto.FLOAT, ['batch', 'sequence', HIDDEN]
    )
    return helper.make_graph(nodes, 'tiny_encoder', bert_inputs(), [output], initializer=weights)


OVERLAP_WEIGHT = 1.5
LOGIT_BIAS = -2.5
DOC_WEIGHT = 0.2


def cross_encoder_graph(vocab_size, rng):
    """logit = 1.5 * overlap - 2.5 + 0.2 * tanh(mean token weight of segment B).

    overlap counts the content tokens (ids past the specials) of segment A (token type 0) whose id
    also occurs among the content tokens of segment B (token type 1); padding is masked out. The
    small token-weight term, bounded by 0.2, makes pairs with equal overlap still score differently.
    """
    weights = [
        const('token_weights', rng.uniform(-1.0, 1.0, (vocab_size,)).astype(np.float32)),
        const('last_special', np.array(MASK_ID, dtype=np.int64)),
        const('one_float', np.array(1.0, dtype=np.float32)),
        const('overlap_weight', np.array(OVERLAP_WEIGHT, dtype=np.float32)),
        const('logit_bias', np.array(LOGIT_BIAS, dtype=np.float32)),
        const('doc_weight', np.array(DOC_WEIGHT, dtype=np.float32)),
        const('axis_1', np.array([1], dtype=np.int64)),
        const('axis_2', np.array([2], dtype=np.int64)),
    ]
    nodes = [
        # Which positions hold content tokens of each segment.
        helper.make_node('Greater', ['input_ids', 'last_special'], ['is_content']),
        helper.make_node('Cast', ['is_content'], ['content'], to=TensorProto.FLOAT),
        helper.make_node('Cast', ['attention_mask'], ['mask'], to=TensorProto.FLOAT),
        helper.make_node('Cast', ['token_type_ids'], ['segment_b'], to=TensorProto.FLOAT),
        helper.make_node('Sub', ['one_float', 'segment_b'], ['segment_a']),
        helper.make_node('Mul', ['content', 'mask'], ['real_content']),
        helper.make_node('Mul', ['real_content', 'segment_a'], ['in_a']),
        helper.make_node('Mul', ['real_content', 'segment_b'], ['in_b']),
        # same[b, i, j] = ids[b, i] == ids[b, j]; found[b, i] = some j in segment B has the same id.
        helper.make_node('Unsqueeze', ['input_ids', 'axis_2'], ['ids_rows']),
        helper.make_node('Unsqueeze', ['input_ids', 'axis_1'], ['ids_cols']),
        helper.make_node('Equal', ['ids_rows', 'ids_cols'], ['same_bool']),
        helper.make_node('Cast', ['same_bool'], ['same'], to=TensorProto.FLOAT),
        helper.make_node('Unsqueeze', ['in_b', 'axis_1'], ['in_b_cols']),
        helper.make_node('Mul', ['same', 'in_b_cols'], ['same_in_b']),
        helper.make_node('ReduceMax', ['same_in_b'], ['found'], axes=[2], keepdims=0),
        helper.make_node('Mul', ['found', 'in_a'], ['overlapping']),
        helper.make_node('ReduceSum', ['overlapping', 'axis_1'], ['overlap'], keepdims=1),
        # Mean token weight over segment B's content tokens (0 when it has none).
        helper.make_node('Gather', ['token_weights', 'input_ids'], ['weights']),
        helper.make_node('Mul', ['weights', 'in_b'], ['b_weights']),
        helper.make_node('ReduceSum', ['b_weights', 'axis_1'], ['b_weight_sum'], keepdims=1),
        helper.make_node('ReduceSum', ['in_b', 'axis_1'], ['b_count'], keepdims=1),
        helper.make_node('Max', ['b_count', 'one_float'], ['b_count_safe']),
        helper.make_node('Div', ['b_weight_sum', 'b_count_safe'], ['b_mean']),
        helper.make_node('Tanh', ['b_mean'], ['b_mean_tanh']),
        helper.make_node('Mul', ['b_mean_tanh', 'doc_weight'], ['doc_term']),
        helper.make_node('Mul', ['overlap', 'overlap_weight'], ['overlap_term']),
        helper.make_node('Add', ['overlap_term', 'logit_bias'], ['partial']),
        helper.make_node('Add', ['partial', 'doc_term'], ['logits']),
    ]
    output = helper.make_tensor_value_info('logits', TensorProto.FLOAT, ['batch', 1])
    return helper.make_graph(
        nodes, 'tiny_cross_encoder', bert_inputs(), [output], initializer=weights
    )


def save_model(graph, path):
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid('', OPSET)],
        producer_name='engram-tiny-models',
        producer_version='1',
    )
    model.ir_version = 7
    onnx.checker.check_model(model)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as out:
        out.write(model.SerializeToString())


# --- folders -----------------------------------------------------------------------------------


def write_tokenizer(folder, tokens):
    write_json(os.path.join(folder, 'tokenizer.json'), tokenizer_json(tokens))
    write_json(os.path.join(folder, 'tokenizer_config.json'), tokenizer_config())


def write_encoder(folder, tokens, pooling):
    graph = encoder_graph(len(tokens), np.random.RandomState(SEED))
    save_model(graph, os.path.join(folder, 'onnx', 'model.onnx'))
    write_tokenizer(folder, tokens)
    write_json(os.path.join(folder, 'config.json'), bert_config(len(tokens), 'BertModel'))
    os.makedirs(os.path.join(folder, '1_Pooling'), exist_ok=True)
    write_json(os.path.join(folder, '1_Pooling', 'config.json'), pooling_config(pooling))


def write_cross_encoder(folder, tokens):
    graph = cross_encoder_graph(len(tokens), np.random.RandomState(SEED + 1))
    save_model(graph, os.path.join(folder, 'onnx', 'model.onnx'))
    write_tokenizer(folder, tokens)
    extra = {'num_labels': 1, 'id2label': {'0': 'LABEL_0'}, 'label2id': {'LABEL_0': 0}}
    write_json(
        os.path.join(folder, 'config.json'),
        bert_config(len(tokens), 'BertForSequenceClassification', extra),
    )


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, 'test', 'fixtures', 'models')
    tokens = vocabulary()
    write_encoder(os.path.join(out, 'tiny-encoder'), tokens, 'mean')
    write_encoder(os.path.join(out, 'tiny-encoder-cls'), tokens, 'cls')
    write_cross_encoder(os.path.join(out, 'tiny-cross-encoder'), tokens)
    print(f'wrote tiny-encoder, tiny-encoder-cls, tiny-cross-encoder ({len(tokens)} tokens)')


if __name__ == '__main__':
    main()
