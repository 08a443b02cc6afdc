package bpe

import (
	"encoding/binary"
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tiktoken-go/tokenizer"
	"github.com/tiktoken-go/tokenizer/codec"
)

var update = flag.Bool("update", false, "write the vocabulary files from the tokenizer library's")

// library is the tokenizer library's codec of each encoding, and the file
// the encoding's vocabulary is in.
var library = []struct {
	name  string
	codec func() tokenizer.Codec
	file  string
	enc   *Encoding
}{
	{"cl100k_base", func() tokenizer.Codec { return codec.NewCl100kBase() }, "cl100k_base.bpe", Cl100kBase},
	{"o200k_base", func() tokenizer.Codec { return codec.NewO200kBase() }, "o200k_base.bpe", O200kBase},
}

// maxRanks bounds the ranks read from the library: o200k_base has 200,000.
const maxRanks = 1 << 18

// TestTheVocabularyFilesAreTheLibrarys makes each vocabulary's file from
// the library's vocabulary and checks it is the one embedded; with
// -update it writes it.
func TestTheVocabularyFilesAreTheLibrarys(t *testing.T) {
	for _, l := range library {
		t.Run(l.name, func(t *testing.T) {
			want := vocabularyFile(t, l.codec())
			if *update {
				require.NoError(t, os.WriteFile(l.file, want, 0o644))
				return
			}
			// The embedded file, which is the one on disk when the test
			// was built; compared whole, not printed whole.
			require.True(t, l.enc.file == string(want), "%s is not the library's vocabulary: run go test -run Vocabulary -update", l.file)
		})
	}
}

// vocabularyFile is the file of c's vocabulary (see vocabulary): its
// tokens by rank, read back with Decode; a rank it has not is an empty
// token, which no lookup finds.
func vocabularyFile(t *testing.T, c tokenizer.Codec) []byte {
	var tokens []string
	for r := uint(0); r < maxRanks; r++ {
		b, err := c.Decode([]uint{r})
		if err != nil {
			b = ""
		}
		tokens = append(tokens, b)
	}
	for tokens[len(tokens)-1] == "" {
		tokens = tokens[:len(tokens)-1]
	}
	require.Greater(t, len(tokens), 50000)
	slots := 1
	for slots < 2*len(tokens) { // at most half full: a missing pair is found in a probe or two
		slots *= 2
	}
	table := make([]uint32, slots)
	var ends []uint32
	var data []byte
	for r, tok := range tokens {
		data = append(data, tok...)
		ends = append(ends, uint32(len(data)))
		if tok == "" {
			continue
		}
		i := hash(tok) & uint32(slots-1)
		for table[i] != 0 {
			i = (i + 1) & uint32(slots-1)
		}
		table[i] = uint32(r + 1)
	}
	out := []byte(vocabularyMagic)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(tokens)))
	out = binary.LittleEndian.AppendUint32(out, uint32(slots))
	for _, e := range ends {
		out = binary.LittleEndian.AppendUint32(out, e)
	}
	for _, s := range table {
		out = binary.LittleEndian.AppendUint32(out, s)
	}
	return append(out, data...)
}
