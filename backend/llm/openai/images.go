package openai

import (
	"encoding/base64"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	oa "github.com/openai/openai-go/v3"
)

// userMessage is a person's message: plain text, or with images the
// text part followed by one image_url part per image, as a data: URL.
func userMessage(text string, images []llm.Image) oa.ChatCompletionMessageParamUnion {
	if len(images) == 0 {
		return oa.UserMessage(text)
	}
	parts := make([]oa.ChatCompletionContentPartUnionParam, 0, len(images)+1)
	if text != "" {
		parts = append(parts, oa.TextContentPart(text))
	}
	for _, img := range images {
		parts = append(parts, oa.ImageContentPart(oa.ChatCompletionContentPartImageImageURLParam{URL: DataURL(img)}))
	}
	return oa.UserMessage(parts)
}

// DataURL is an image as a data: URL.
func DataURL(img llm.Image) string {
	return "data:" + img.Mime + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
}

// appendToolImages follows the last of a run of tool results (msgs[i]
// is one) with the images those results returned. A tool message of the
// Chat Completions API holds text only, so the images go as a user
// message right after the results, which the API allows and models read
// as part of the same step.
func appendToolImages(out []oa.ChatCompletionMessageParamUnion, msgs []llm.Message, i int) []oa.ChatCompletionMessageParamUnion {
	if i+1 < len(msgs) && msgs[i+1].Role == chat.RoleTool {
		return out // not the last result of the run
	}
	var images []llm.Image
	for j := i; j >= 0 && msgs[j].Role == chat.RoleTool; j-- {
		images = append(msgs[j].Images, images...)
	}
	if len(images) == 0 {
		return out
	}
	return append(out, userMessage("The images the tool results above returned:", images))
}
