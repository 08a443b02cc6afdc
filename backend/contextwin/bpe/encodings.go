package bpe

import _ "embed"

// The split patterns are OpenAI's (tiktoken), as the tokenizer library
// writes them for regexp2.

//go:embed cl100k_base.bpe
var cl100kFile string

//go:embed o200k_base.bpe
var o200kFile string

// Cl100kBase is the encoding of GPT-4 and GPT-3.5.
var Cl100kBase = &Encoding{
	pattern: `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
	file:    cl100kFile,
}

// O200kBase is the encoding of OpenAI's models since GPT-4o.
var O200kBase = &Encoding{
	pattern: `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
	file:    o200kFile,
}
