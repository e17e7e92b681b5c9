// Strict base64 of the authority payload (RFC 4648 test vectors).
#include <gtest/gtest.h>

#include <string>

#include "impl/records/base64.h"

namespace spotcheck::records {
namespace {

TEST(RecordBase64, Rfc4648Vectors) {
  const std::pair<std::string, std::string> vectors[] = {
      {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},       {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
  for (const auto& [bytes, text] : vectors) {
    EXPECT_EQ(base64_encode(bytes), text);
    const Base64Decoded decoded = base64_decode(text);
    EXPECT_EQ(decoded.status, Base64Status::kOk) << text;
    EXPECT_EQ(decoded.bytes, bytes);
  }
}

TEST(RecordBase64, AllByteValuesRoundTrip) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) {
    bytes.push_back(static_cast<char>(i));
  }
  const std::string text = base64_encode(bytes);
  EXPECT_NE(text.find('+'), std::string::npos);
  EXPECT_NE(text.find('/'), std::string::npos);
  const Base64Decoded decoded = base64_decode(text);
  ASSERT_EQ(decoded.status, Base64Status::kOk);
  EXPECT_EQ(decoded.bytes, bytes);
}

TEST(RecordBase64, StrictDecoding) {
  EXPECT_EQ(base64_decode("Zg").status, Base64Status::kInvalid);     // missing padding
  EXPECT_EQ(base64_decode("Zg=").status, Base64Status::kInvalid);
  EXPECT_EQ(base64_decode("Z===").status, Base64Status::kInvalid);
  EXPECT_EQ(base64_decode("=Zg=").status, Base64Status::kInvalid);
  EXPECT_EQ(base64_decode("Zg==Zg==").status, Base64Status::kInvalid);  // padding inside
  EXPECT_EQ(base64_decode("Zm9v\n").status, Base64Status::kInvalid);
  EXPECT_EQ(base64_decode("Zm-_").status, Base64Status::kInvalid);      // base64url alphabet
  EXPECT_EQ(base64_decode("Zh==").status, Base64Status::kNotCanonical); // non-zero unused bits
  EXPECT_EQ(base64_decode("Zm9=").status, Base64Status::kNotCanonical);
}

}  // namespace
}  // namespace spotcheck::records
